import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { createRecaller } from '../src/recall/recaller.js';
import { forget, remember, reviseMemory } from '../src/memory/remember.js';
import { importExports, reindex } from '../src/data-folder/import-exports.js';
import { listMemories } from '../src/memory/list-memories.js';
import { recentActivity } from '../src/memory/recent-activity.js';
import type { Store } from '../src/stores/store.js';
import { recordedMemories } from './support/bundle-memories.js';
import { tempDir } from './support/convert-to-temp.js';
import { memoryStoreErrors } from './support/pam-validator.js';
import { ROOT } from './support/shared.js';
import { cleanUp } from './support/clean-up.js';
import { pamValidate } from './support/pam-sdk.js';
import { Folder } from '../src/folder/folder.js';

const SAMPLES = join(ROOT, 'samples');

/** The bundle is valid for our Ajv check and, where installed, the official validator. */
function expectValidBundle(dataDir: string): void {
  const bundle = layoutOf(dataDir).bundle.dir;
  const store = JSON.parse(readFileSync(join(bundle, 'memory-store.json'), 'utf8')) as unknown;
  expect(memoryStoreErrors(store)).toEqual([]);
  const { status, output } = pamValidate(bundle);
  expect(output).toMatch(/\b0 invalid\b/);
  expect(status, output).toBe(0);
}

interface BundleMemory {
  id: string;
  status: string;
  temporal: { superseded_by?: string };
  provenance: { conversation_ref?: string; message_ref?: string; extraction_method: string };
}

// The record: memory-store.json and the memory journal that extends it.
function bundleMemories(dataDir: string): BundleMemory[] {
  return recordedMemories<BundleMemory>(layoutOf(dataDir).bundle.dir);
}

async function memoryEdges(store: Store, id: string): Promise<string[]> {
  const rows = await store.cypher(
    'MATCH (m:Memory {id: $id})-[:DERIVED_FROM]->(x) RETURN x.id AS target',
    { id },
  );
  return rows.map((r) => String(r.target));
}

describe('memories as first-class data', () => {
  const dataDir = join(tempDir(), 'data');
  let store: Store;
  let conversation: { id: string; platformId: string; name: string };
  let messageId: string;
  let imported: number;

  beforeAll(async () => {
    await importExports(new Folder(dataDir), [
      join(SAMPLES, 'chatgpt-export.zip'),
      join(SAMPLES, 'claude-export.zip'),
    ]);
    store = await new Folder(dataDir).openStore({ readonly: true });
    const page = await store.listConversations({ source: 'chatgpt', sort: 'oldest', limit: 1 });
    const first = page.items[0];
    if (!first) throw new Error('the sample has no ChatGPT conversation');
    conversation = first;
    const thread = await store.thread(first.id);
    messageId = thread[1]?.id ?? '';
    imported = bundleMemories(dataDir).length;
  }, 120_000);

  afterAll(
    cleanUp(async () => {
      await store.close();
    }),
  );

  it('projects imported memories (Claude memories and projects) as Memory nodes', async () => {
    expect(imported).toBeGreaterThan(0);
    const [row] = await store.cypher('MATCH (m:Memory) RETURN count(m) AS n');
    expect(Number(row?.n)).toBe(imported);
    expectValidBundle(dataDir);
  });

  it('remembers, finds by a word, shows the source, supersedes, forgets, and stays valid', async () => {
    const made = await remember(new Folder(dataDir), {
      content: 'The user keeps a rye starter called Gustav on the fridge door',
      type: 'fact',
      tags: ['Baking', 'sourdough'],
      confidence: 0.8,
      conversationId: conversation.platformId,
      messageId,
      method: 'llm_inference',
    });
    expect(made.created).toBe(true);
    expect(made.memory.tags).toEqual(['baking', 'sourdough']);
    expect(made.memory.provenance.conversation_ref).toBe(conversation.id);
    expect(`${conversation.id}:${made.memory.provenance.message_ref ?? ''}`).toBe(messageId);
    expectValidBundle(dataDir);

    // The same content again is the same memory.
    const again = await remember(new Folder(dataDir), {
      content: '  the user keeps a rye starter called Gustav on the fridge door ',
      type: 'fact',
    });
    expect(again).toMatchObject({ created: false, memory: { id: made.memory.id } });

    const found = await listMemories(store, new Folder(dataDir), { query: 'gustav' });
    expect(found.total).toBe(1);
    expect(found.items[0]).toMatchObject({
      id: made.memory.id,
      confidence: 0.8,
      source: { conversationId: conversation.id, messageId, title: conversation.name },
    });
    expect(found.items[0]?.snippet).toContain('Gustav');
    expect(await memoryEdges(store, made.memory.id)).toEqual([messageId]);
    expect(
      (await listMemories(store, new Folder(dataDir), { tag: 'baking', type: 'fact' })).total,
    ).toBe(1);
    expect(
      (await listMemories(store, new Folder(dataDir), { tag: 'baking', type: 'goal' })).total,
    ).toBe(0);

    const recaller = createRecaller(store);
    const search = await recaller.search({ text: 'gustav', mode: 'keyword' });
    expect(search.memories).toHaveLength(1);
    expect(search.memories?.[0]).toMatchObject({
      kind: 'memory',
      memory: { id: made.memory.id, type: 'fact' },
      conversationId: conversation.id,
      messageId,
    });
    await recaller.close();

    const { previous, memory } = await reviseMemory(new Folder(dataDir), made.memory.id, {
      content: 'The user keeps a rye starter called Gustav in the cellar',
    });
    expect(previous).toMatchObject({
      status: 'superseded',
      temporal: { superseded_by: memory.id },
    });
    expect(memory.provenance.message_ref).toBe(made.memory.provenance.message_ref);
    expectValidBundle(dataDir);
    const current = await listMemories(store, new Folder(dataDir), { query: 'gustav' });
    expect(current.items.map((m) => m.id)).toEqual([memory.id]);
    const history = await listMemories(store, new Folder(dataDir), {
      tag: 'baking',
      status: 'all',
    });
    expect(history.items.map((m) => m.status).sort()).toEqual(['active', 'superseded']);

    const retracted = await forget(new Folder(dataDir), memory.id);
    expect(retracted.status).toBe('retracted');
    expectValidBundle(dataDir);
    expect((await listMemories(store, new Folder(dataDir), { query: 'gustav' })).total).toBe(0);
    const after = createRecaller(store);
    expect((await after.search({ text: 'gustav', mode: 'keyword' })).memories).toBeUndefined();
    await after.close();
    await expect(forget(new Folder(dataDir), memory.id)).rejects.toThrow(/is retracted/);
    await expect(forget(new Folder(dataDir), 'no-such-memory')).rejects.toThrow(
      'there is no memory with id no-such-memory',
    );
    // Nothing is lost: the bundle keeps all three states.
    const statuses = bundleMemories(dataDir)
      .filter((m) => m.id === made.memory.id || m.id === memory.id)
      .map((m) => m.status)
      .sort();
    expect(statuses).toEqual(['retracted', 'superseded']);
  });

  it('refuses a source that does not exist, and bad input, writing nothing', async () => {
    const before = readFileSync(join(layoutOf(dataDir).bundle.dir, 'memory-store.json'), 'utf8');
    await expect(
      remember(new Folder(dataDir), { content: 'x', type: 'fact', conversationId: 'nope' }),
    ).rejects.toThrow('there is no conversation with id nope');
    await expect(
      remember(new Folder(dataDir), {
        content: 'x',
        type: 'fact',
        messageId: `${conversation.id}:nope`,
      }),
    ).rejects.toThrow(/there is no message with id .* in conversation/);
    await expect(
      remember(new Folder(dataDir), { content: 'x', type: 'fact', tags: ['??'] }),
    ).rejects.toThrow(/the tag "\?\?" cannot be written/);
    await expect(
      remember(new Folder(dataDir), { content: 'x', type: 'fact', confidence: 2 }),
    ).rejects.toThrow('confidence is a number from 0 to 1, not 2');
    expect(readFileSync(join(layoutOf(dataDir).bundle.dir, 'memory-store.json'), 'utf8')).toBe(
      before,
    );
  });

  it('lists what happened recently: new conversations, busiest ones, memories added', async () => {
    const made = await remember(new Folder(dataDir), {
      content: 'Prefers metric units',
      type: 'preference',
    });
    const recent = await recentActivity(store, new Folder(dataDir), { since: '2d' });
    expect(recent.memoriesAdded.items.map((m) => m.id)).toContain(made.memory.id);
    const all = await recentActivity(store, new Folder(dataDir), { since: '2000-01-01' });
    expect(all.newConversations.total).toBe(await store.conversationCount());
    expect(all.mostActive.length).toBeGreaterThan(0);
    expect(all.mostActive[0]?.messages).toBeGreaterThanOrEqual(
      all.mostActive.at(-1)?.messages ?? 0,
    );
    await expect(recentActivity(store, new Folder(dataDir), { since: 'soon' })).rejects.toThrow(
      /since takes .*7d/,
    );
  });

  it('is restored by reindex from the bundle alone', async () => {
    const before = await store.cypher(
      'MATCH (m:Memory) RETURN m.id AS id, m.status AS status ORDER BY id',
    );
    const edges = await store.cypher(
      'MATCH (m:Memory)-[:DERIVED_FROM]->(x) RETURN m.id AS id, x.id AS target ORDER BY id',
    );
    expect(edges.length).toBeGreaterThan(0);
    await reindex(new Folder(dataDir));
    expect(
      await store.cypher('MATCH (m:Memory) RETURN m.id AS id, m.status AS status ORDER BY id'),
    ).toEqual(before);
    expect(
      await store.cypher(
        'MATCH (m:Memory)-[:DERIVED_FROM]->(x) RETURN m.id AS id, x.id AS target ORDER BY id',
      ),
    ).toEqual(edges);
    expect((await listMemories(store, new Folder(dataDir), { query: 'metric' })).total).toBe(1);
  }, 120_000);

  it('waits for an import that holds the write lock, and neither loses the other', async () => {
    const dir = join(tempDir(), 'data');
    let started!: () => void;
    const importStarted = new Promise<void>((resolve) => (started = resolve));
    const importing = importExports(new Folder(dir), [join(SAMPLES, 'claude-export.zip')], {
      onProgress: () => {
        started();
      },
    });
    await importStarted;
    let waited = false;
    const made = await remember(
      new Folder(dir),
      { content: 'Remembered while an import ran', type: 'context' },
      { onWait: () => (waited = true) },
    );
    const report = await importing;
    expect(waited).toBe(true);
    const ids = bundleMemories(dir).map((m) => m.id);
    expect(ids).toContain(made.memory.id);
    // The import's own memories (Claude's) are there too.
    expect(ids.length).toBeGreaterThan(1);
    expect(report.graph.written).toBeGreaterThan(0);
    expectValidBundle(dir);
  }, 120_000);
});
