import { spawn, execFile } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { importExports, reindex } from '../src/data-folder/import-exports.js';
import { layoutOf } from '../src/folder/layout.js';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { branchedConversation, msg, node } from './support/chatgpt-builder.js';
import { FIXED_TIME, tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { Folder } from '../src/folder/folder.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const CRASH_CHILD = join(ROOT, 'test', 'support', 'crash-child.mjs');
const run = promisify(execFile);

async function counts(
  dataDir: string,
): Promise<{ nodes: Record<string, number>; edges: Record<string, number> }> {
  const store = SqliteStore.open(layoutOf(dataDir).store, { readonly: true });
  try {
    return await store.counts();
  } finally {
    await store.close();
  }
}

describe('import', () => {
  it('imports the same export again without a change, and says so', async () => {
    const dir = tempDir();
    const input = join(dir, 'conversations.json');
    writeFileSync(input, JSON.stringify([branchedConversation('a'), branchedConversation('b')]));
    const data = join(dir, 'data');
    const first = await importExports(new Folder(data), [input], { importedAt: FIXED_TIME });
    expect(first.graph).toMatchObject({ written: 2, unchanged: 0 });
    const before = await counts(data);
    expect(before.nodes).toMatchObject({ Conversation: 2, Message: 6, Document: 2, Import: 1 });
    expect(before.edges).toMatchObject({ HAS_MESSAGE: 6, NEXT: 2, REPLY_TO: 4, IMPORTED: 2 });
    const again = await importExports(new Folder(data), [input]);
    expect(again.problems.map((p) => p.code)).toContain('file-already-imported');
    expect(again.graph).toMatchObject({ written: 0, unchanged: 0 });
    expect(await counts(data)).toEqual(before);
  });

  it('updates edited, branched and renamed conversations from a newer export, adds new ones, leaves nothing stale', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const old = join(dir, 'old.json');
    writeFileSync(
      old,
      JSON.stringify([
        branchedConversation('edit'),
        branchedConversation('branch'),
        branchedConversation('rename'),
        branchedConversation('same'),
      ]),
    );
    await importExports(new Folder(data), [old], { importedAt: FIXED_TIME });
    const edited = branchedConversation('edit');
    (edited.mapping as Record<string, { message: Record<string, unknown> }>).b!.message.content = {
      content_type: 'text',
      parts: ['an edited answer'],
    };
    const branched = branchedConversation('branch');
    const mapping = branched.mapping as Record<string, Record<string, unknown>>;
    (mapping.u as { children: string[] }).children.push('c');
    mapping.c = node('c', 'u', [], msg('c', 'assistant', 'third answer', 1_700_000_004));
    branched.current_node = 'c';
    const renamed = branchedConversation('rename', 'A new name');
    // Changed on the platform since the old export: a later update time (the later copy leads).
    for (const changed of [edited, branched, renamed]) changed.update_time = 1_700_000_200;
    const newer = join(dir, 'newer.json');
    writeFileSync(
      newer,
      JSON.stringify([
        edited,
        branched,
        renamed,
        branchedConversation('same'),
        branchedConversation('new'),
      ]),
    );
    const result = await importExports(new Folder(data), [newer]);
    expect(result.graph).toMatchObject({ written: 4, unchanged: 1 });
    expect(result.written).toMatchObject({ created: 1, updated: 3, unchanged: 1 });
    const after = await counts(data);
    expect(after.nodes).toMatchObject({ Conversation: 5, Message: 16, Document: 5, Import: 2 });
    expect(after.edges).toMatchObject({ HAS_MESSAGE: 16, NEXT: 5, REPLY_TO: 11, HAS_DOCUMENT: 5 });
    const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
    try {
      expect((await store.thread('edit')).map((m) => m.content)).toEqual([
        'hello',
        'an edited answer',
      ]);
      expect((await store.thread('branch')).map((m) => m.content)).toEqual([
        'hello',
        'third answer',
      ]);
      expect((await store.conversation('rename'))?.name).toBe('A new name');
      expect((await store.search({ text: 'edited' })).hits).toHaveLength(1);
      // The unchanged conversation keeps the link to the import that wrote it.
      const imported = await store.cypher(
        `MATCH (i:Import)-[:IMPORTED]->(c:Conversation) RETURN c.conversation_id AS id, i.source_file AS file ORDER BY id`,
      );
      expect(imported).toEqual([
        { id: 'branch', file: 'newer.json' },
        { id: 'edit', file: 'newer.json' },
        { id: 'new', file: 'newer.json' },
        { id: 'rename', file: 'newer.json' },
        { id: 'same', file: 'old.json' },
      ]);
    } finally {
      await store.close();
    }
  });

  it('recognises an unchanged zipped export by its size and CRC-32 without reading it again', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const input = join(dir, 'export.zip');
    await writeChatgptExport(input, { seed: 4, conversations: 5 });
    await importExports(new Folder(data), [input]);
    const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
    const [file] = await store.importedFiles();
    await store.close();
    expect(file).toMatchObject({ sourceFile: 'export.zip!conversations.json' });
    expect(file?.size).toBeGreaterThan(0);
    expect(typeof file?.crc32).toBe('number');
    const again = await importExports(new Folder(data), [input]);
    expect(again.files.find((f) => f.role === 'conversations')?.checksum).toBe(file?.checksum);
    expect(again.problems.find((p) => p.code === 'file-already-imported')?.count).toBe(1);
  });

  it('rebuilds the index from the bundle alone, deep traces included', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    await writeChatgptExport(join(dir, 'export.zip'), { seed: 3, conversations: 12 });
    await importExports(new Folder(data), [join(dir, 'export.zip')], { deep: true });
    const before = await counts(data);
    expect(before.nodes.DecisionTrace).toBeGreaterThan(0);
    const { rmSync } = await import('node:fs');
    rmSync(layoutOf(data).store);
    const store = SqliteStore.open(layoutOf(data).store);
    await store.setDeep(true);
    await store.close();
    expect(await reindex(new Folder(data))).toEqual({
      conversations: 12,
      problems: [],
      written: 12,
      unchanged: 0,
    });
    expect(await counts(data)).toEqual(before);
  });

  it('brings a store made by an older version up to date when it is opened for reading', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    await writeChatgptExport(join(dir, 'export.zip'), { seed: 6, conversations: 8 });
    await importExports(new Folder(data), [join(dir, 'export.zip')]);
    const read = async (): Promise<unknown> => {
      const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
      try {
        return await store.stats();
      } finally {
        await store.close();
      }
    };
    const before = await read();
    // What a store of the previous version lacks: the per-month counts and two properties.
    const { default: Database } = await import('better-sqlite3-multiple-ciphers');
    const old = new Database(layoutOf(data).store);
    old.exec(`DROP TABLE message_counts; ALTER TABLE "Conversation" DROP COLUMN has_branches`);
    old.close();
    expect(await read()).toEqual(before);
    const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
    try {
      expect((await store.listConversations({ hasBranches: true })).total).toBe(0);
    } finally {
      await store.close();
    }
  });
});

describe('import under faults (compiled CLI)', () => {
  it('a process killed with kill -9 mid-import leaves a bundle and store that the next import completes', async () => {
    expect(existsSync(CLI)).toBe(true);
    const dir = tempDir();
    const input = join(dir, 'export.zip');
    // Twice the crash point: as many left to complete as were written before the kill (it was
    // 1,500, whose three imports took most of the test's time; the crash point is exact).
    await writeChatgptExport(input, { seed: 5, conversations: 600 });
    const data = join(dir, 'data');
    // The import kills itself (SIGKILL) once 300 conversations are in the bundle and the store.
    const child = spawn(process.execPath, [CRASH_CHILD, 'import', input, data, '300'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let said = '';
    child.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const [, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect(said).toBe('');
    expect(signal).toBe('SIGKILL');
    const conversationsDir = join(data, 'bundle', 'conversations');
    const partial = readdirSync(conversationsDir).filter((f) => f.endsWith('.json')).length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(600);

    await run(process.execPath, [CLI, 'import', input, '--data-dir', data, '-q']);
    const clean = join(dir, 'clean');
    await run(process.execPath, [CLI, 'import', input, '--data-dir', clean, '-q']);
    expect(await counts(data)).toEqual(await counts(clean));
    const files = readdirSync(conversationsDir);
    expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(600);
    expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('a reader searches while an import writes', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const first = join(dir, 'first.zip');
    await writeChatgptExport(first, { seed: 8, conversations: 20 });
    await run(process.execPath, [CLI, 'import', first, '--data-dir', data, '-q']);
    const second = join(dir, 'second.zip');
    await writeChatgptExport(second, { seed: 9, conversations: 1500 });
    const child = spawn(process.execPath, [CLI, 'import', second, '--data-dir', data, '-q'], {
      stdio: 'ignore',
    });
    let done = false;
    const exited = new Promise<number>((resolve) =>
      child.on('exit', (code) => {
        done = true;
        resolve(code ?? -1);
      }),
    );
    let searches = 0;
    while (!done) {
      const { stdout } = await run(process.execPath, [
        CLI,
        'search',
        'the',
        '--per-message',
        '--limit',
        '3',
        '--format',
        'json',
        '--data-dir',
        data,
      ]);
      expect((JSON.parse(stdout) as { hits: unknown[] }).hits.length).toBe(3);
      searches++;
    }
    expect(await exited).toBe(0);
    expect(searches).toBeGreaterThan(0);
  });
});

describe('chatgraph query', () => {
  it('gives the engine message in one line and exit code 2 for a bad query, and reads --param as JSON', async () => {
    const dir = tempDir();
    const input = join(dir, 'conversations.json');
    writeFileSync(input, JSON.stringify([branchedConversation('a')]));
    const data = join(dir, 'data');
    await run(process.execPath, [CLI, 'import', input, '--data-dir', data, '-q']);
    const bad = await run(process.execPath, [
      CLI,
      'query',
      'MATCH (n RETURN n',
      '--data-dir',
      data,
    ]).catch((e: unknown) => e as { code: number; stderr: string });
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr.trim().split('\n')).toHaveLength(1);
    const { stdout } = await run(process.execPath, [
      CLI,
      'query',
      'MATCH (c:Conversation) WHERE c.message_count = $n AND c.conversation_id IN $ids RETURN c.name AS name',
      '--param',
      'n=3',
      '--param',
      'ids=["a"]',
      '--format',
      'json',
      '--data-dir',
      data,
    ]);
    expect(JSON.parse(stdout)).toEqual([{ name: 'Branched' }]);
  });
});
