import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import type { GraphBatch } from '../../src/graph/graph-batch.js';
import { deltaOf, removesNode } from '../../src/graph/graph-delta.js';
import { SessionConversion, type SessionSource } from '../../src/live/convert-session.js';
import { LiveStoreWriter } from '../../src/pipeline/live-store-writer.js';
import { Neo4jStore } from '../../src/stores/neo4j/neo4j-store.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import type { HashedBatch, Store } from '../../src/stores/store.js';
import { linearEntries, linearLog, log } from '../support/claude-code-lines.js';
import { useNeo4j } from '../support/neo4j-shared.js';
import { LINES, WORDS, batchOf, snapshot, SESSION_SOURCE } from '../support/patch-fixtures.js';

const server = useNeo4j();

const SOURCE: SessionSource = { ...SESSION_SOURCE, importId: 'import:sha256:0' };
// The fixture's words and the random logs' (see claude-code-lines.ts).
const ALL_WORDS = [...WORDS, 'hi', 'fix', 'done', 'café', 'hello', 'failed', 'plan', 'hmm'];
// Another conversation beside the grown one, so counts and hits are not one conversation's alone.
const other = (): GraphBatch =>
  batchOf(LINES.map((l) => ({ ...(l as object), sessionId: 'beside' })));

async function emptied(): Promise<Neo4jStore> {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  await store.upsert([other()]);
  return store;
}

async function cypher(query: string, params: Record<string, unknown> = {}): Promise<unknown[]> {
  const { url, user, password } = server.target;
  const driver = neo4j.driver(url, neo4j.auth.basic(user, password));
  try {
    const result = await driver.executeQuery(query, params);
    return result.records.map((r) => r.get(0) as unknown);
  } finally {
    await driver.close();
  }
}

/** A log read in steps of `sizes` lines, its Import moving to each step's checksum, settled at `settles`. */
function* stepsOf(
  entries: readonly unknown[],
  sizes: readonly number[],
  settles: readonly boolean[],
) {
  let at = 0;
  for (let i = 0; at < entries.length; i++) {
    const next = Math.min(entries.length, at + (sizes[i % sizes.length] ?? 1));
    const source = { ...SOURCE, checksum: `sha256:${next}`, importId: `import:sha256:${next}` };
    yield { lines: entries.slice(at, next), source, settle: settles[i % settles.length] === true };
    at = next;
  }
}

/** What a reader sees of every conversation of the log, and each one's messages in `_seq` order. */
async function seen(store: Neo4jStore, owners: Iterable<string>) {
  const out = [];
  for (const owner of [...owners].sort())
    out.push({
      owner,
      ...(await snapshot(store, owner, ALL_WORDS)),
      order: await cypher(`MATCH (m:Message {_owner: $owner}) RETURN m.id ORDER BY m._seq`, {
        owner,
      }),
    });
  return out;
}

/** The log written whole at every step (a hash of its own: never passed over as unchanged). */
async function writtenWhole(entries: readonly unknown[], sizes: number[], settles: boolean[]) {
  const store = await emptied();
  const conversion = new SessionConversion(SOURCE);
  const owners = new Set<string>();
  const views = [];
  let n = 0;
  for (const { lines, source, settle } of stepsOf(entries, sizes, settles)) {
    for (const conversation of conversion.convert(lines, source, () => undefined)) {
      owners.add(conversation.id);
      const batch = settle ? conversation.settle().batch() : conversation.batch();
      const hashed: HashedBatch = { ...batch, hash: `step-${++n}` };
      await store.upsert([hashed]);
    }
    views.push(await seen(store, owners));
  }
  await store.close();
  return views;
}

/**
 * The log written step by step by `watch`'s writer into `store`: deltas where the store holds
 * the step before. `view` says what a reader sees after each step.
 */
async function writtenLive(
  store: Store,
  log: { entries: readonly unknown[]; sizes: number[]; settles: boolean[] },
  view: (owners: Set<string>) => Promise<unknown> = () => Promise.resolve(undefined),
) {
  const outcomes: string[] = [];
  const applyDelta = store.applyDelta?.bind(store);
  if (!applyDelta) throw new Error('the store takes no deltas');
  store.applyDelta = async (...args) => {
    const outcome = await applyDelta(...args);
    outcomes.push(outcome);
    return outcome;
  };
  const writer = new LiveStoreWriter(store, false);
  const conversion = new SessionConversion(SOURCE);
  const owners = new Set<string>();
  const views = [];
  let writes = 0;
  for (const { lines, source, settle } of stepsOf(log.entries, log.sizes, log.settles)) {
    for (const conversation of conversion.convert(lines, source, () => undefined)) {
      owners.add(conversation.id);
      await writer.step(conversation);
      writes++;
      if (settle) await writer.settled(conversation, conversation.settle());
      if (settle) writes++;
    }
    views.push(await view(owners));
  }
  await store.close();
  return { views, outcomes, writes, owners };
}

/** The log written live into Neo4j, with what a reader sees after each step. */
async function writtenLiveNeo4j(entries: readonly unknown[], sizes: number[], settles: boolean[]) {
  const store = await emptied();
  return writtenLive(store, { entries, sizes, settles }, (owners) => seen(store, owners));
}

/** The log written live into the SQLite store, the model of the contract. */
function writtenLiveSqlite(entries: readonly unknown[], sizes: number[], settles: boolean[]) {
  const dir = mkdtempSync(join(tmpdir(), 'chatgraph-neo4j-delta-'));
  return writtenLive(SqliteStore.open(join(dir, 'live.sqlite')), { entries, sizes, settles });
}

describe('Neo4jStore.applyDelta', () => {
  it('leaves Neo4j as writing each step whole, a line at a time, each step after the first a delta', async () => {
    const sizes = [1];
    const settles = [false, true];
    // Community has one database: the two runs take turns.
    const expected = await writtenWhole(LINES, sizes, settles);
    const live = await writtenLiveNeo4j(LINES, sizes, settles);
    expect(live.views).toEqual(expected);
    // Only the first write (nothing held yet) went whole; every other one was a delta.
    expect(live.outcomes).toEqual(Array<string>(live.writes - 1).fill('written'));
    // The IMPORTED edge moved with each step: one, from the last step's Import.
    const [owner] = live.owners;
    expect(
      await cypher(`MATCH (i:Import)-[:IMPORTED]->(:Conversation {id: $owner}) RETURN i.id`, {
        owner,
      }),
    ).toEqual([`import:sha256:${LINES.length}`]);
  }, 300_000);

  it('leaves Neo4j as writing each step whole for branching, resumed and linear logs', async () => {
    // A few fixed logs of the property test's kinds (seeded: the same logs each run).
    const logs = fc.sample(
      fc.tuple(
        fc.oneof(log, linearLog.map(linearEntries)),
        fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
      ),
      { seed: 7, numRuns: 3 },
    );
    let deltas = 0;
    for (const [entries, sizes, settles] of logs) {
      const expected = await writtenWhole(entries, sizes, settles);
      const live = await writtenLiveNeo4j(entries, sizes, settles);
      expect(live.views).toEqual(expected);
      // Neo4j takes and refuses the deltas the SQLite store does (random logs often rebuild:
      // their steps then go whole, without a delta).
      expect(live.outcomes).toEqual((await writtenLiveSqlite(entries, sizes, settles)).outcomes);
      deltas += live.outcomes.filter((o) => o === 'written').length;
    }
    expect(deltas).toBeGreaterThanOrEqual(14);
  }, 600_000);

  it('moves the place (`_seq`) of a message kept as it was when the messages change order', async () => {
    const previous = batchOf(LINES);
    const messages = previous.nodes.filter((node) => node.label === 'Message').reverse();
    let k = 0;
    // Every node a copy with the same properties: only the messages' order differs.
    const next: HashedBatch = {
      ...previous,
      hash: 'reordered',
      nodes: previous.nodes.map((node) => ({
        ...(node.label === 'Message' ? (messages[k++] ?? node) : node),
      })),
    };
    const order = `MATCH (m:Message {_owner: $owner}) RETURN m.id ORDER BY m._seq`;
    const whole = await emptied();
    await whole.upsert([next]);
    const expected = await cypher(order, { owner: next.owner });
    await whole.close();
    const store = await emptied();
    await store.upsert([previous]);
    const was = await cypher(order, { owner: next.owner });
    expect(
      await store.applyDelta(deltaOf(previous, next), previous.hash ?? '', 'reordered', false),
    ).toBe('written');
    expect(await cypher(order, { owner: next.owner })).toEqual(expected);
    expect(expected).not.toEqual(was);
    await store.close();
  }, 120_000);
});

describe("Neo4jStore.applyDelta's refusals", () => {
  it("answers 'stale' and writes nothing when the store does not hold the base", async () => {
    const store = await emptied();
    const conversion = new SessionConversion(SOURCE);
    const at = (n: number) => ({ ...SOURCE, checksum: `sha256:${n}`, importId: `import:${n}` });
    const [first] = conversion.convert(LINES.slice(0, 2), at(2), () => undefined);
    if (!first) throw new Error('no conversation');
    const held: HashedBatch = { ...first.batch(), hash: first.version };
    await store.upsert([held]);
    const [second] = conversion.convert(LINES.slice(2, 4), at(4), () => undefined);
    const delta = second?.delta;
    if (!second || !delta) throw new Error('no delta');
    const before = await seen(store, [first.id]);
    const stored = () =>
      cypher(`MATCH (c:Conversation {id: $id}) RETURN c._hash`, { id: first.id });
    expect(await store.applyDelta(delta, 'live:sha256:other', second.version, false)).toBe('stale');
    // Held, but written in the other mode: not the base either.
    expect(await store.applyDelta(delta, first.version, second.version, true)).toBe('stale');
    expect(await seen(store, [first.id])).toEqual(before);
    expect(await stored()).toEqual([first.version]);
    // The same delta over the version held is written: the refusals were the base's.
    expect(await store.applyDelta(delta, first.version, second.version, false)).toBe('written');
    expect(await stored()).toEqual([second.version]);
    expect(await seen(store, [first.id])).not.toEqual(before);
    await store.close();
  }, 120_000);

  it("answers 'stale' and writes nothing for a delta that takes a message away (a rewritten log)", async () => {
    const store = await emptied();
    const previous = batchOf(LINES.slice(0, 3));
    await store.upsert([previous]);
    const rewritten = batchOf([
      { ...(LINES[0] as object), message: { role: 'user', content: 'a rewritten start' } },
    ]);
    const delta = deltaOf(previous, rewritten);
    expect(removesNode(delta)).toBe(true);
    const before = await seen(store, [previous.owner]);
    expect(await store.applyDelta(delta, previous.hash ?? '', rewritten.hash ?? '', false)).toBe(
      'stale',
    );
    expect(await seen(store, [previous.owner])).toEqual(before);
    expect(
      await cypher(`MATCH (c:Conversation {id: $id}) RETURN c._hash`, { id: previous.owner }),
    ).toEqual([previous.hash]);
    await store.close();
  }, 120_000);
});
