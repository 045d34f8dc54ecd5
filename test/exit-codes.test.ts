import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { tempDir } from './support/convert-to-temp.js';
import { chatgptConversation } from './support/hostile-corpus.js';
import { CLI, chatgraph } from './support/run-cli.js';
import { ROOT } from './support/shared.js';

const five = JSON.stringify(
  Array.from({ length: 5 }, (_, i) => chatgptConversation(`c${i}`, `conversation ${i}`)),
);

function file(name: string, data: string | Buffer): string {
  const path = join(tempDir(), name);
  writeFileSync(path, data);
  return path;
}

describe('exit codes of convert and import', () => {
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('build first: npm run build');
  });

  it('0 for the bundled samples, with no notice at all (nothing to puzzle a newcomer)', async () => {
    const samples = ['chatgpt-export.zip', 'claude-export.zip', 'claude-code'].map((name) =>
      join(ROOT, 'samples', name),
    );
    const imported = await chatgraph('import', ...samples, '--data-dir', join(tempDir(), 'data'));
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^total +48 /m);
    expect(imported.stdout).not.toMatch(/notices:|warning|error/);
    expect(imported.stdout).toMatch(/; 0 message times? inferred$/m);
    expect(imported.stderr).toBe('');
  });

  it('0 for a generated export, with routine notices in one line (details with --verbose)', async () => {
    const sample = join(tempDir(), 'chatgpt-export.zip');
    await writeChatgptExport(sample, { seed: 7, conversations: 10 });
    const converted = await chatgraph('convert', sample, '-o', join(tempDir(), 'b'), '-q');
    expect(converted.code).toBe(0);
    expect(converted.stdout).toMatch(/^notices: \d+ timestamp-inferred \(details with --verbose/m);
    expect(converted.stdout).not.toMatch(/info timestamp-inferred/);
    const verbose = await chatgraph('convert', sample, '-o', join(tempDir(), 'b'), '-q', '-v');
    expect(verbose.stdout).toMatch(/info timestamp-inferred/);
  });

  it('1 for a cut-off conversations.json: what precedes the cut is written, the loss named', async () => {
    const cut = file('conversations.json', five.slice(0, Math.floor(five.length * 0.7)));
    for (const args of [
      ['convert', cut, '-o', join(tempDir(), 'b'), '-q'],
      ['import', cut, '--data-dir', join(tempDir(), 'data'), '-q'],
    ]) {
      const { code, stdout } = await chatgraph(...args);
      expect(code).toBe(1);
      expect(stdout).toMatch(/truncated-file/);
      expect(stdout).toMatch(/incomplete: 1 record/);
    }
  });

  it('1 for a session log with a line that is not JSON (a skipped record)', async () => {
    const entry = (uuid: string, text: string): string =>
      JSON.stringify({
        type: 'user',
        uuid,
        sessionId: 's-bad',
        timestamp: '2026-01-01T10:00:00Z',
        message: { role: 'user', content: text },
      });
    const log = file('s-bad.jsonl', `${entry('a', 'first')}\n{not json\n${entry('b', 'third')}\n`);
    const { code, stdout } = await chatgraph('convert', log, '-o', join(tempDir(), 'b'), '-q');
    expect(stdout).toMatch(/error malformed-line ×1/);
    expect(code).toBe(1);
  });

  it('2 for a file cut before its first conversation, named as cut off, not "not a chat export"', async () => {
    const cut = file('conversations.json', five.slice(0, 30));
    const { code, stderr } = await chatgraph('convert', cut, '-o', join(tempDir(), 'b'));
    expect(code).toBe(2);
    expect(stderr).toMatch(/is cut off/);
    expect(stderr).not.toMatch(/not a chat export/);
  });

  it('0 for UTF-16 with a byte-order mark, decoded', async () => {
    for (const encoding of ['utf16le', 'utf16be'] as const) {
      const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(five, 'utf16le')]);
      const bytes = encoding === 'utf16le' ? le : Buffer.from(le).swap16();
      const out = join(tempDir(), 'b');
      const { code } = await chatgraph('convert', file('conversations.json', bytes), '-o', out);
      expect(code).toBe(0);
      expect(readdirSync(join(out, 'conversations'))).toHaveLength(5);
    }
  });

  it('2 for input that is not an export, and nothing is left behind by import', async () => {
    const notExport = file('data.json', JSON.stringify({ hello: 'world' }));
    const fresh = join(tempDir(), 'data');
    const first = await chatgraph('import', notExport, '--data-dir', fresh);
    expect(first.code).toBe(2);
    expect(existsSync(fresh)).toBe(false);
    const existing = join(tempDir(), 'data');
    mkdirSync(existing);
    writeFileSync(join(existing, 'keep.txt'), 'mine');
    expect((await chatgraph('import', notExport, '--data-dir', existing)).code).toBe(2);
    expect(readdirSync(existing)).toEqual(['keep.txt']);
  });
});
