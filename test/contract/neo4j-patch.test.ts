import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { Neo4jStore } from '../../src/stores/neo4j/neo4j-store.js';
import type { HashedBatch } from '../../src/stores/store.js';
import { useNeo4j } from '../support/neo4j-shared.js';
import { LINES, WORDS, batchOf, importsAfterDrop, snapshot } from '../support/patch-fixtures.js';

const server = useNeo4j();

// The session growing a line at a time, its Import moving to each step's checksum.
const steps = (): HashedBatch[] =>
  LINES.map((_, i) => batchOf(LINES.slice(0, i + 1), `import:sha256:${i + 1}`));
// Another conversation beside it, so counts and hits are not one conversation's alone.
const other = (): HashedBatch => batchOf(LINES.map((l) => ({ ...(l as object), sessionId: 's2' })));

async function emptied(): Promise<Neo4jStore> {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
}

// A mark of chatgraph's own kind (`_`, never read back) on the first message: a patch keeps the
// node, a rewrite deletes it and makes a new one without the mark.
async function cypher(query: string): Promise<unknown[]> {
  const { url, user, password } = server.target;
  const driver = neo4j.driver(url, neo4j.auth.basic(user, password));
  try {
    const result = await driver.executeQuery(query);
    return result.records.map((r) => r.get(0) as unknown);
  } finally {
    await driver.close();
  }
}
const markFirst = () =>
  cypher(`MATCH (m:Message {content: 'plan the zeppelin route', _owner: '${steps()[0]?.owner ?? ''}'})
          SET m._mark = true RETURN count(m)`);
const marked = () => cypher(`MATCH (m:Message) WHERE m._mark RETURN count(m)`);

describe('patching a grown conversation into Neo4j', () => {
  it('leaves the store exactly as rewriting the conversation whole would, line after line', async () => {
    const batches = steps();
    const [first, ...rest] = batches;
    if (!first) throw new Error('no steps');
    const owner = first.owner;
    // Rewritten whole at each step (Community has one database: the two runs take turns).
    const whole = await emptied();
    await whole.upsert([first, other()]);
    const expected = [];
    for (const next of rest) {
      await whole.upsert([next]);
      expected.push(await snapshot(whole, owner, WORDS));
    }
    await whole.close();

    const patched = await emptied();
    await patched.upsert([first, other()]);
    expect(await markFirst()).toEqual([neo4j.int(1)]);
    let previous = first;
    const seen = [];
    for (const next of rest) {
      expect(await patched.patch(previous, next, false)).toBe('written');
      seen.push(await snapshot(patched, owner, WORDS));
      previous = next;
    }
    expect(seen).toEqual(expected);
    // Patched, not rewritten: the first message is the node written first.
    expect(await marked()).toEqual([neo4j.int(1)]);
    expect(await patched.patch(previous, previous, false)).toBe('unchanged');
    // The IMPORTED edge moved with each step: one, from the last step's Import.
    expect(
      await cypher(`MATCH (i:Import)-[:IMPORTED]->(:Conversation {id: '${owner}'}) RETURN i.id`),
    ).toEqual([`import:sha256:${LINES.length}`]);

    // Not additive (a rewritten log): written whole, as a rewrite would.
    const rewritten = batchOf([
      { ...(LINES[0] as object), message: { role: 'user', content: 'a rewritten start' } },
    ]);
    await patched.patch(previous, rewritten, false);
    const after = await snapshot(patched, owner, WORDS);
    expect(await marked()).toEqual([neo4j.int(0)]);
    await patched.close();
    const fresh = await emptied();
    await fresh.upsert([first, other()]);
    for (const next of rest) await fresh.upsert([next]);
    await fresh.upsert([rewritten]);
    expect(after).toEqual(await snapshot(fresh, owner, WORDS));
    await fresh.close();
  }, 300_000);

  it('rewrites whole when the store does not hold the previous batch (another writer changed it)', async () => {
    const store = await emptied();
    const [stale, written] = steps();
    const next = steps().at(-1);
    if (!stale || !written || !next) throw new Error('no steps');
    await store.upsert([written]);
    await store.patch(stale, next, false);
    const seen = await snapshot(store, next.owner, WORDS);
    await store.clear();
    await store.upsert([written]);
    await store.upsert([next]);
    expect(seen).toEqual(await snapshot(store, next.owner, WORDS));
    await store.close();
  }, 120_000);

  it("drops a followed log's earlier Imports once no conversation hangs from them", async () => {
    const store = await emptied();
    expect(await importsAfterDrop(store)).toEqual(['import:sha256:2', 'import:sha256:9']);
    await store.close();
  }, 120_000);
});
