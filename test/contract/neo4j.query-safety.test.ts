import { describe, expect, it } from 'vitest';
import { connectNeo4j } from '../../src/stores/neo4j/neo4j-connect.js';
import { Neo4jStore } from '../../src/stores/neo4j/neo4j-store.js';
import { runUserQuery } from '../../src/stores/neo4j/neo4j-user-query.js';
import { QueryError } from '../../src/stores/store.js';
import { useNeo4j } from '../support/neo4j-shared.js';
import { HOSTILE_QUERIES, querySafetyContract } from './query-safety-contract.js';

const server = useNeo4j();

querySafetyContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});

describe('user Cypher on Neo4j', () => {
  it('runs in a READ transaction: the server refuses a write even past the text check', async () => {
    const driver = await connectNeo4j(server.target);
    // A session whose default is WRITE: the READ transaction is runUserQuery's own doing.
    const session = driver.session();
    try {
      const limits = { timeoutSeconds: 10, memoryMb: 512 };
      for (const query of HOSTILE_QUERIES.slice(0, 3))
        await expect(runUserQuery(session, query, {}, limits)).rejects.toBeInstanceOf(QueryError);
      await expect(
        runUserQuery(session, 'CREATE (n:Conversation {id: "x"}) RETURN n', {}, limits),
      ).rejects.toThrow(/write|read/i);
      const [row] = await runUserQuery(
        session,
        'MATCH (c:Conversation {id: "x"}) RETURN count(c) AS n',
        {},
        limits,
      );
      expect(row).toEqual({ n: 0 });
    } finally {
      await session.close();
      await driver.close();
    }
  });
});
