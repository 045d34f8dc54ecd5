import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/convert-to-temp.js';
import { ROOT } from '../../test/support/shared.js';
import { memoryIo } from './cli-io.js';
import { runCli } from './run-cli.js';

/** One command line run in this process: its exit code and what it printed. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

describe('runCli, in process', () => {
  it('imports the bundled samples, then counts, searches and prints a thread', async () => {
    const dataDir = tempDir();
    const samples = ['chatgpt-export.zip', 'claude-export.zip', 'claude-code'].map((n) =>
      join(ROOT, 'samples', n),
    );
    const imported = await cli('import', ...samples, '--data-dir', dataDir, '-q');
    expect(imported.code).toBe(0);
    expect(imported.out).toMatch(/graph: \d+ conversations? indexed, 0 unchanged/);

    const stats = await cli('stats', '--data-dir', dataDir, '--format', 'json');
    const counts = JSON.parse(stats.out) as { conversations: number; messages: number };
    expect(counts.conversations).toBe(48);

    const search = await cli('search', 'sourdough', '--data-dir', dataDir, '--format', 'json');
    expect(search.code).toBe(0);
    const result = JSON.parse(search.out) as {
      mode: string;
      conversations: { conversationId: string; title: string; best: { snippet: string } }[];
    };
    expect(result.mode).toBe('keyword');
    // The README's first search: one conversation, the right one.
    expect(result.conversations.map((h) => h.title)).toEqual(['Sourdough Starter Not Rising']);

    const id = result.conversations[0]?.conversationId ?? '';
    const thread = await cli('thread', id, '--data-dir', dataDir);
    expect(thread.code).toBe(0);
    expect(thread.out).toMatch(/^# .+ \(\w[\w-]*, \d{4}-\d{2}-\d{2}, \d+ messages\)/);
    expect(thread.out.toLowerCase()).toContain('sourdough');
  });

  it('says a usage problem in one line with exit code 2, and prints nothing on stdout', async () => {
    const dataDir = tempDir();
    const bad = await cli('query', 'MATCH (n) RETURN n', '--format', 'xml', '--data-dir', dataDir);
    expect(bad).toEqual({
      code: 2,
      out: '',
      err: 'chatgraph: --format xml is not a format (formats: table, json)',
    });
    const missing = await cli('import', join(dataDir, 'nope.zip'), '--data-dir', dataDir);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('nope.zip" does not exist');
    const unknown = await cli('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('unknown command frobnicate');
  });

  it('lists every provider with how to get its export', async () => {
    const { code, out } = await cli('sources');
    expect(code).toBe(0);
    expect(out).toMatch(/^chatgpt +ChatGPT: Settings → Data controls → Export data/m);
    expect(out.split('\n').length).toBeGreaterThanOrEqual(8);
  });
});
