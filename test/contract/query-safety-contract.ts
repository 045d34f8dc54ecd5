import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryLimitError } from '../../src/stores/query-limits.js';
import { QueryError, type Store } from '../../src/stores/store.js';
import { batchesOf, knownConversations } from '../support/graph-fixtures.js';
import { cleanUp } from '../support/clean-up.js';

/** Queries that try to change the graph, reach outside it, or run without bound. */
export const HOSTILE_QUERIES = [
  // The write that hid behind `//` inside a string and emptied every later answer.
  "MATCH (c:Conversation) WHERE c.source <> 'x//' REMOVE c:Conversation SET c:Project RETURN count(c)",
  'MATCH (c:Conversation) WHERE c.source <> "x//" SET c.title = "owned" RETURN c',
  "MATCH (c:Conversation) WHERE c.title = 'a\\'//' DETACH DELETE c",
  "MATCH (m:Message) WHERE m.content = '/*' SET m.content = '' RETURN '*/'",
  'CREATE (n:Conversation {id: "x"}) RETURN n',
  'MERGE (n:Source {name: "evil"}) RETURN n',
  'MATCH (m:Message) REMOVE m.content RETURN count(m)',
  'MATCH (m:Message) DELETE m',
  'MATCH (c:Conversation) FOREACH (x IN [1] | SET c.title = "owned")',
  'MATCH (c:Conversation) CALL { WITH c SET c.title = "owned" } IN TRANSACTIONS RETURN 1',
  'LOAD CSV FROM "file:///etc/passwd" AS row RETURN row',
  'CALL grafeo.floyd_warshall() YIELD source RETURN count(*)',
  'CALL grafeo.betweenness_centrality() YIELD node_id RETURN count(*)',
  'CALL dbms.killQueries(["x"])',
  'DROP INDEX message_text IF EXISTS',
  'INSERT (:Conversation {id: "x"})',
  'USE system SHOW USERS',
  'MATCH (n) /**/SET/**/ n.x = 1',
];

type Fingerprint = unknown;

async function fingerprint(store: Store): Promise<Fingerprint> {
  return {
    counts: await store.counts(),
    conversations: await store.listConversations({ limit: 1000, sort: 'oldest' }),
    stats: await store.stats(),
  };
}

// Random token soup: keywords (read and write), strings with escapes and `//`, comments.
const soup = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'MATCH',
        '(c:Conversation)',
        '(m:Message)',
        'WHERE',
        'RETURN',
        'count(c)',
        'c.title',
        '=',
        '<>',
        'SET',
        'REMOVE',
        'DELETE',
        'CREATE',
        'c:Project',
        'c.title = "x"',
        'WITH c',
        'CALL',
        '{',
        '}',
        'grafeo.floyd_warshall()',
      ),
      fc
        .string({ unit: fc.constantFrom('a', "'", '\\', '/', '*', ' ') })
        .map((s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}//'`),
      fc
        .string({ unit: fc.constantFrom('a', '*', '/', "'", ' ') })
        .map((s) => `/*${s.replaceAll('*/', '')}*/`),
      fc.string({ unit: fc.constantFrom('a', 'S', 'E', 'T', "'", ' ') }).map((s) => `// ${s}\n`),
    ),
    { maxLength: 14 },
  )
  .map((pieces) => pieces.join(' '));

/**
 * The hostile-query suite every store passes: each query is refused as a query error (never a
 * crash), and the graph is unchanged after every one; the time limit stops a slow query.
 */
export function querySafetyContract(name: string, open: () => Promise<Store>): void {
  describe(`Query safety: ${name}`, () => {
    let store: Store;
    let before: Fingerprint;
    let conversations: number;

    beforeAll(async () => {
      store = await open();
      await store.setDeep(true);
      await store.upsert(batchesOf(await knownConversations()));
      before = await fingerprint(store);
      conversations = await store.conversationCount();
    });
    afterAll(
      cleanUp(async () => {
        await store.close();
      }),
    );

    it.each(HOSTILE_QUERIES)('refuses %s and leaves the graph as it was', async (query) => {
      await expect(store.cypher(query)).rejects.toBeInstanceOf(QueryError);
      expect(await fingerprint(store)).toEqual(before);
      // What the next query sees (a warm projection included) is the store's graph.
      expect(await store.cypher('MATCH (c:Conversation) RETURN count(c) AS n')).toEqual([
        { n: conversations },
      ]);
    });

    it('leaves the graph as it was after random token soup', async () => {
      await fc.assert(
        fc.asyncProperty(soup, async (query) => {
          try {
            await store.cypher(query);
          } catch (error) {
            expect(error).toBeInstanceOf(QueryError);
          }
          expect(await fingerprint(store)).toEqual(before);
        }),
        { numRuns: 25 },
      );
      expect(await store.cypher('MATCH (c:Conversation) RETURN count(c) AS n')).toEqual([
        { n: conversations },
      ]);
    });

    it('stops a slow query at a short deadline, with one sentence', async () => {
      const error: unknown = await store
        .cypher(
          'UNWIND range(1, 100000) AS a UNWIND range(1, 100000) AS b RETURN count(*) AS n',
          {},
          { timeoutSeconds: 2, memoryMb: 4096 },
        )
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryLimitError);
      // The store says what stopped it and the figure; each shell says where it is set.
      expect((error as Error).message).toBe('the query ran longer than 2 s and was stopped');
      expect((error as QueryLimitError).limit).toEqual({ kind: 'timeout', value: 2 });
      expect(await fingerprint(store)).toEqual(before);
    });
  });
}
