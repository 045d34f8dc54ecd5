import { spawn, execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeChatgptExport, writeClaudeExport } from '../src/sample/write-samples.js';
import { withWriteLock, type LockHolder } from '../src/folder/write-lock.js';
import { tempDir } from './support/convert-to-temp.js';
import { holdWriteLock } from './support/lock-holder.js';
import { ROOT } from './support/shared.js';
import { layoutOf } from '../src/folder/layout.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);

describe('the write lock', () => {
  it('runs writers one at a time in one process, and a nested writer does not wait on itself', async () => {
    const data = tempDir();
    const events: string[] = [];
    const waits: LockHolder[] = [];
    // The first writer holds the lock until the second says it waits for it.
    let secondWaits = (): void => undefined;
    const waiting = new Promise<void>((resolve) => (secondWaits = resolve));
    const writer = (name: string) =>
      withWriteLock(
        layoutOf(data),
        async () => {
          events.push(`${name} in`);
          if (name === 'a') await waiting;
          // Nested: a writer inside a writer (a reindex inside an import) goes straight on.
          await withWriteLock(layoutOf(data), () => {
            events.push(`${name} nested`);
            return Promise.resolve();
          });
          events.push(`${name} out`);
        },
        {
          onWait: (h) => {
            waits.push(h);
            secondWaits();
          },
          pollMilliseconds: 20,
        },
      );
    await Promise.all([writer('a'), writer('b')]);
    expect(events).toEqual(['a in', 'a nested', 'a out', 'b in', 'b nested', 'b out']);
    expect(waits).toEqual([{ pid: process.pid }]);
  });

  it('a writer killed with kill -9 while holding the lock does not block the next one', async () => {
    const data = tempDir();
    const child = await holdWriteLock(data);
    const waits: LockHolder[] = [];
    let got = false;
    let told = (): void => undefined;
    const waiting = new Promise<void>((resolve) => (told = resolve));
    const next = withWriteLock(
      layoutOf(data),
      () => {
        got = true;
        return Promise.resolve(Date.now());
      },
      {
        onWait: (h) => {
          waits.push(h);
          told();
        },
        pollMilliseconds: 20,
      },
    );
    await waiting;
    // Held by the live child: the next writer waits, and is told by whom.
    expect(got).toBe(false);
    expect(waits).toEqual([{ pid: child.pid }]);
    const killedAt = Date.now();
    child.kill('SIGKILL');
    const acquiredAt = await next;
    expect(acquiredAt - killedAt).toBeLessThan(2000);
  });

  it('the CLI says it waits for another writer, then imports', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const input = join(dir, 'export.zip');
    await writeChatgptExport(input, { seed: 3, conversations: 3 });
    const child = await holdWriteLock(data);
    const importing = spawn(process.execPath, [CLI, 'import', input, '--data-dir', data, '-q']);
    let stderr = '';
    let stdout = '';
    importing.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const waiting = new Promise<void>((resolve) => {
      importing.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('waiting')) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => importing.on('exit', resolve));
    await waiting;
    expect(stderr).toContain(`waiting for another chatgraph writer (pid ${String(child.pid)})…`);
    // Waiting while the holder lives (it has not exited); then the holder dies and it goes on.
    expect(importing.exitCode).toBeNull();
    child.kill('SIGKILL');
    expect(await exited).toBe(0);
    expect(stdout).toContain('3 conversations indexed');
  });
});

describe('two imports at once (compiled CLI)', () => {
  it(
    'index every conversation and keep every memory, trial after trial',
    { timeout: 300_000 },
    async () => {
      expect(existsSync(CLI)).toBe(true);
      const dir = tempDir();
      const chatgpt = join(dir, 'chatgpt.zip');
      const claude = join(dir, 'claude.zip');
      await writeChatgptExport(chatgpt, { seed: 21, conversations: 40 });
      await writeClaudeExport(claude, { seed: 22, conversations: 25 });
      // Each export alone, for the expected counts.
      const alone: { index: number; memories: number }[] = [];
      for (const input of [chatgpt, claude]) {
        const data = join(dir, `alone-${alone.length}`);
        await run(process.execPath, [CLI, 'import', input, '--data-dir', data, '-q']);
        alone.push(memoryStoreCounts(data));
      }
      const expected = {
        index: alone.reduce((n, a) => n + a.index, 0),
        memories: alone.reduce((n, a) => n + a.memories, 0),
      };
      expect(expected.index).toBe(65);
      expect(expected.memories).toBeGreaterThan(0);
      for (let trial = 0; trial < 5; trial++) {
        const data = join(dir, `together-${trial}`);
        const results = await Promise.all(
          [chatgpt, claude].map((input) =>
            run(process.execPath, [CLI, 'import', input, '--data-dir', data, '-q']),
          ),
        );
        for (const result of results) expect(result.stdout).toMatch(/conversations? indexed/);
        expect(memoryStoreCounts(data)).toEqual(expected);
        const files = readdirSync(join(data, 'bundle', 'conversations'));
        expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(65);
        const { stdout } = await run(process.execPath, [
          CLI,
          'stats',
          '--format',
          'json',
          '--data-dir',
          data,
        ]);
        expect((JSON.parse(stdout) as { conversations: number }).conversations).toBe(65);
      }
    },
  );
});

function memoryStoreCounts(data: string): { index: number; memories: number } {
  const store = JSON.parse(readFileSync(join(data, 'bundle', 'memory-store.json'), 'utf8')) as {
    conversations_index: unknown[];
    memories: unknown[];
  };
  return { index: store.conversations_index.length, memories: store.memories.length };
}
