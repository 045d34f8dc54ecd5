import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { flushMemories } from '../src/memory/write-memories.js';
import { forget, remember, reviseMemory } from '../src/memory/remember.js';
import { listMemories } from '../src/memory/list-memories.js';
import { readMemories } from '../src/memory/list-memories.js';
import { reindex } from '../src/data-folder/import-exports.js';
import { writeMemories } from '../src/memory/write-memories.js';
import { newMemory } from '../src/model/memory-input.js';
import { tempDir } from './support/convert-to-temp.js';
import { memoryStoreErrors } from './support/pam-validator.js';
import { ROOT } from './support/shared.js';
import { pamValidate } from './support/pam-sdk.js';
import { Folder } from '../src/folder/folder.js';
import { layoutOf } from '../src/folder/layout.js';

// The compiled library: the child remembers through the public verb, as a library caller would.
const LIBRARY = join(ROOT, 'dist', 'index.js');

function expectValidBundle(dataDir: string): void {
  const bundle = layoutOf(dataDir).bundle.dir;
  const json = JSON.parse(readFileSync(join(bundle, 'memory-store.json'), 'utf8')) as unknown;
  expect(memoryStoreErrors(json)).toEqual([]);
  const { status, output } = pamValidate(bundle);
  expect(output).toMatch(/\b0 invalid\b/);
  expect(status, output).toBe(0);
}

function fileMemoryIds(dataDir: string): string[] {
  const text = readFileSync(join(layoutOf(dataDir).bundle.dir, 'memory-store.json'), 'utf8');
  return (JSON.parse(text) as { memories: { id: string }[] }).memories.map((m) => m.id);
}

async function seeded(n: number): Promise<string> {
  const dataDir = join(tempDir(), 'data');
  await writeMemories(new Folder(dataDir), (context) => {
    for (let i = 0; i < n; i++) {
      const memory = newMemory(
        randomUUID(),
        { content: `seeded memory ${String(i)} about project ${String(i % 97)}`, type: 'fact' },
        { platform: 'local' },
        'manual',
        context.now,
      );
      context.memories.set(memory.id, memory);
    }
  });
  return dataDir;
}

// The bytes of the bundle's files that a step wrote anew (a file replaced or grown).
function filesOf(bundle: string): Map<string, { ino: number; size: number; mtimeMs: number }> {
  const files = new Map<string, { ino: number; size: number; mtimeMs: number }>();
  for (const name of readdirSync(bundle)) {
    const info = statSync(join(bundle, name));
    if (info.isFile()) files.set(name, { ino: info.ino, size: info.size, mtimeMs: info.mtimeMs });
  }
  return files;
}

async function bytesWrittenByRemember(dataDir: string, content: string): Promise<number> {
  const bundle = layoutOf(dataDir).bundle.dir;
  const before = filesOf(bundle);
  await remember(new Folder(dataDir), { content, type: 'fact' });
  let bytes = 0;
  for (const [name, after] of filesOf(bundle)) {
    const was = before.get(name);
    if (!was || was.ino !== after.ino) bytes += after.size;
    else if (was.size !== after.size || was.mtimeMs !== after.mtimeMs)
      bytes += Math.max(after.size - was.size, 0);
  }
  return bytes;
}

describe('the memory journal', () => {
  it('writes the same bytes for a remember into 50 memories as into 3,000', async () => {
    const small = await seeded(50);
    const large = await seeded(3000);
    // The first remember of a process may set the journal up: the second is what every one costs.
    await bytesWrittenByRemember(small, 'warm up');
    await bytesWrittenByRemember(large, 'warm up');
    const fewBytes = await bytesWrittenByRemember(small, 'prefers dark roast coffee');
    const manyBytes = await bytesWrittenByRemember(large, 'prefers dark roast coffee');
    expect(fewBytes).toBeGreaterThan(0);
    expect(manyBytes).toBeLessThan(fewBytes * 1.5);
    // memory-store.json of 3,000 memories is far larger than what a remember writes.
    expect(statSync(join(layoutOf(large).bundle.dir, 'memory-store.json')).size).toBeGreaterThan(
      manyBytes * 50,
    );
    const listed = await readMemories(new Folder(large));
    expect(listed.map((m) => m.content)).toContain('prefers dark roast coffee');
    expect(listed).toHaveLength(3002);
  }, 60_000);

  it('keeps the bundle valid after a remember and after the fold, and every reader sees the journal', async () => {
    const dataDir = await seeded(5);
    const made = await remember(new Folder(dataDir), { content: 'lives in Lyon', type: 'fact' });
    const later = await remember(new Folder(dataDir), {
      content: 'runs on Sundays',
      type: 'preference',
    });
    const gone = await forget(new Folder(dataDir), later.memory.id);
    expect(gone.status).toBe('retracted');
    const revised = await reviseMemory(new Folder(dataDir), made.memory.id, {
      content: 'lives in Paris',
    });
    const journal = layoutOf(dataDir).bundle.memoryJournal;
    expect(existsSync(journal)).toBe(true);
    expect(fileMemoryIds(dataDir)).not.toContain(made.memory.id);
    expectValidBundle(dataDir);
    // The record is the file and its journal: lists, searches and statuses see every change.
    const all = await readMemories(new Folder(dataDir));
    const status = new Map(all.map((m) => [m.id, m.status]));
    expect(status.get(made.memory.id)).toBe('superseded');
    expect(status.get(later.memory.id)).toBe('retracted');
    expect(status.get(revised.memory.id)).toBe('active');
    const store = await new Folder(dataDir).openStore({ readonly: true });
    try {
      const page = await listMemories(store, new Folder(dataDir), { query: 'Paris' });
      expect(page.items.map((m) => m.id)).toEqual([revised.memory.id]);
      expect((await listMemories(store, new Folder(dataDir), { query: 'Sundays' })).items).toEqual(
        [],
      );
    } finally {
      await store.close();
    }
    expect(await flushMemories(new Folder(dataDir))).toBe(4);
    expect(existsSync(journal)).toBe(false);
    expect(fileMemoryIds(dataDir)).toEqual(
      expect.arrayContaining([made.memory.id, later.memory.id, revised.memory.id]),
    );
    expectValidBundle(dataDir);
    expect((await readMemories(new Folder(dataDir))).map((m) => [m.id, m.status])).toEqual(
      all.map((m) => [m.id, m.status]),
    );
  }, 60_000);

  it('keeps every memory through a reindex of a bundle whose journal is not folded yet', async () => {
    const dataDir = await seeded(3);
    const ids: string[] = [];
    for (const content of ['owns a cat named Miso', 'learns Portuguese', 'uses vim'])
      ids.push((await remember(new Folder(dataDir), { content, type: 'fact' })).memory.id);
    expect(existsSync(layoutOf(dataDir).bundle.memoryJournal)).toBe(true);
    await reindex(new Folder(dataDir));
    expect(fileMemoryIds(dataDir)).toEqual(expect.arrayContaining(ids));
    expectValidBundle(dataDir);
    const store = await new Folder(dataDir).openStore({ readonly: true });
    try {
      const page = await listMemories(store, new Folder(dataDir), { query: 'Miso' });
      expect(page.items.map((m) => m.id)).toEqual([ids[0]]);
      expect((await listMemories(store, new Folder(dataDir), { limit: 200 })).total).toBe(6);
    } finally {
      await store.close();
    }
  }, 60_000);
});

// A process remembering as fast as it can, saying each memory's id once remember returned.
function burst(
  dataDir: string,
  count: number,
): { ids: string[]; killAfter(n: number): Promise<void> } {
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { DataFolder } from ${JSON.stringify(LIBRARY)};
       const folder = await DataFolder.open(${JSON.stringify(dataDir)});
       for (let i = 0; i < ${String(count)}; i++) {
         const { memory } = await folder.remember({ content: 'burst memory ' + i, type: 'fact' });
         process.stdout.write(memory.id + '\\n');
       }`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const ids: string[] = [];
  let rest = '';
  const waiters: { n: number; resolve: () => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString()).split('\n');
    rest = lines.pop() ?? '';
    ids.push(...lines.filter(Boolean));
    for (const w of waiters.filter((w) => ids.length >= w.n)) {
      child.kill('SIGKILL');
      w.resolve();
    }
  });
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      resolve();
    }),
  );
  return {
    ids,
    async killAfter(n) {
      await new Promise<void>((resolve) => waiters.push({ n, resolve }));
      await exited;
    },
  };
}

describe('kill -9 during a burst of remembers (compiled library)', () => {
  it(
    'loses no memory remember returned, at any moment, across a fold of the journal',
    { timeout: 300_000 },
    async () => {
      expect(existsSync(LIBRARY)).toBe(true);
      const dataDir = join(tempDir(), 'data');
      const acknowledged: string[] = [];
      // Killed early (journal appends), then past 500 changes (the fold writes the file whole).
      for (const total of [7, 30, 505]) {
        const run = burst(dataDir, 600);
        await run.killAfter(total - acknowledged.length);
        acknowledged.push(...run.ids);
        const ids = new Set((await readMemories(new Folder(dataDir))).map((m) => m.id));
        expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
        expectValidBundle(dataDir);
      }
      // The journal a kill cut off goes on: one more remember, and everything is there.
      const last = await remember(new Folder(dataDir), {
        content: 'after the kills',
        type: 'fact',
      });
      const all = new Set((await readMemories(new Folder(dataDir))).map((m) => m.id));
      expect([...acknowledged, last.memory.id].filter((id) => !all.has(id))).toEqual([]);
      await reindex(new Folder(dataDir));
      expect(fileMemoryIds(dataDir)).toEqual(expect.arrayContaining(acknowledged));
      expectValidBundle(dataDir);
    },
  );
});
