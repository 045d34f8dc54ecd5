import neo4j from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Neo4jStore } from '../../src/stores/neo4j/neo4j-store.js';
import { STEMS_INDEX, TEXT_INDEX } from '../../src/stores/neo4j/neo4j-full-text.js';
import {
  VECTOR_INDEX,
  VECTOR_INDEX_SETTINGS,
  VECTOR_LABEL,
} from '../../src/stores/neo4j/neo4j-vector-index.js';
import { embedConversations } from '../../src/recall/embed-conversations.js';
import { batchesOf, knownConversations } from '../support/graph-fixtures.js';
import { useNeo4j } from '../support/neo4j-shared.js';
import { usageContract } from './usage-contract.js';
import { searchBatches, stemBatches } from '../support/search-fixtures.js';
import { idContract } from './id-contract.js';
import { listContract } from './list-contract.js';
import { memoryContract } from './memory-contract.js';
import { relationContract } from './relation-contract.js';
import { stemsContract } from './stems-contract.js';
import { storeContract } from './store-contract.js';
import { bagOfWords, vectorContract } from './vector-contract.js';

const server = useNeo4j();

// Community has one user database: each test starts from an emptied one.
storeContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});
listContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});
memoryContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});
relationContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});
idContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});
vectorContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});
stemsContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});
usageContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});

describe('a Neo4j store written before stemming', () => {
  it('is searched without the stemmed index, and stemmed in place at the next write', async () => {
    const { url, user, password } = server.target;
    const driver = neo4j.driver(url, neo4j.auth.basic(user, password));
    const session = driver.session();
    try {
      const first = await Neo4jStore.open(server.target);
      await first.clear();
      await first.upsert(stemBatches());
      await first.close();
      // What the previous release left: no stemmed index, no stems on the messages.
      await session.run(`DROP INDEX ${STEMS_INDEX} IF EXISTS`);
      await session.run(`MATCH (m:Message) REMOVE m._stems`);
      const owners = async (store: Neo4jStore, text: string): Promise<string[]> =>
        [...new Set((await store.search({ text })).hits.map((h) => h.conversationId))].sort();
      const store = await Neo4jStore.open(server.target);
      expect(await owners(store, 'Wohnungen')).toEqual(['st-de']);
      expect(await owners(store, 'Wohnung')).toEqual([]);
      await store.upsert(searchBatches());
      expect(await owners(store, 'Wohnung')).toEqual(['st-de']);
      expect(await owners(store, 'panneau')).toEqual(['st-fr']);
      await store.close();
    } finally {
      await session.close();
      await driver.close();
    }
  });
});

describe('a Neo4j full-text index made by the previous release', () => {
  it('is dropped and made again, stemming and over attachments, at the next write', async () => {
    const { url, user, password } = server.target;
    const driver = neo4j.driver(url, neo4j.auth.basic(user, password));
    const session = driver.session();
    const index = async (): Promise<unknown> =>
      (
        await session.run(
          `SHOW FULLTEXT INDEXES YIELD name, labelsOrTypes, options WHERE name = $name
           RETURN labelsOrTypes, options.indexConfig.\`fulltext.analyzer\` AS analyzer`,
          { name: TEXT_INDEX },
        )
      ).records.map((r) => r.toObject());
    try {
      const available = await session.run(
        `CALL db.index.fulltext.listAvailableAnalyzers() YIELD analyzer RETURN collect(analyzer) AS names`,
      );
      expect(available.records[0]?.get('names')).toContain('english');
      const store = await Neo4jStore.open(server.target);
      await store.clear();
      await session.run(`DROP INDEX ${TEXT_INDEX} IF EXISTS`);
      // The previous release's index, as its schema made it.
      await session.run(`CREATE FULLTEXT INDEX ${TEXT_INDEX} FOR (n:Message) ON EACH [n.content]`);
      await session.run('CALL db.awaitIndexes(300)');
      await store.close();
      const writer = await Neo4jStore.open(server.target);
      await writer.upsert(searchBatches());
      expect(await index()).toEqual([
        { labelsOrTypes: ['Message', 'Attachment'], analyzer: 'english' },
      ]);
      const found = async (text: string): Promise<string[]> =>
        (await writer.search({ text })).hits.map((h) => h.messageId);
      expect(await found('decorator')).toEqual(['kw-bread:m3']);
      expect(await found('pumpernickel')).toEqual(['kw-bread:m3']);
      await writer.close();
    } finally {
      await session.close();
      await driver.close();
    }
  });
});

describe('a Neo4j vector index made by the previous release', () => {
  it('is made again with the HNSW settings at the next write, and finds the same', async () => {
    const { url, user, password } = server.target;
    const driver = neo4j.driver(url, neo4j.auth.basic(user, password));
    const session = driver.session();
    const index = async (): Promise<{ id: string; settings: Record<string, string> }> => {
      const [record] = (
        await session.run(
          `SHOW VECTOR INDEXES YIELD name, id, options WHERE name = $name RETURN id, options.indexConfig AS config`,
          { name: VECTOR_INDEX },
        )
      ).records;
      const config = z.record(z.string(), z.unknown()).parse(record?.get('config') ?? {});
      return {
        id: String(record?.get('id')),
        settings: Object.fromEntries(
          [...Object.keys(VECTOR_INDEX_SETTINGS), 'vector.dimensions'].map((key) => [
            key,
            String(config[key]),
          ]),
        ),
      };
    };
    const wanted = {
      ...Object.fromEntries(
        Object.entries(VECTOR_INDEX_SETTINGS).map(([key, value]) => [key, String(value)]),
      ),
      'vector.dimensions': String(bagOfWords.model.dimensions),
    };
    try {
      const store = await Neo4jStore.open(server.target);
      await store.clear();
      await store.upsert(batchesOf(await knownConversations()));
      await embedConversations(store.vectors, {
        embedder: bagOfWords,
        chunk: (text) => [{ text, start: 0, end: text.length }],
      });
      const [vector] = await bagOfWords.embed(['how long should sourdough proof']);
      if (!vector) throw new Error('no vector');
      // Bags of words tie often: the nearest and the scores, not the order of ties, are compared.
      const ids = async (target: Neo4jStore): Promise<string[]> => {
        const hits = await target.vectors.search({ vector, limit: 3 });
        return [hits[0]?.nodeId ?? '', ...hits.map((hit) => hit.similarity.toFixed(4))];
      };
      const nearest = await ids(store);
      expect(nearest).toHaveLength(4);
      // The previous release's index, as its reset made it: Neo4j's own HNSW settings.
      await session.run(`DROP INDEX ${VECTOR_INDEX}`);
      await session.run(
        `CREATE VECTOR INDEX ${VECTOR_INDEX} FOR (v:${VECTOR_LABEL}) ON (v.embedding)
         OPTIONS {indexConfig: {\`vector.dimensions\`: ${String(bagOfWords.model.dimensions)}, \`vector.similarity_function\`: 'cosine'}}`,
      );
      await session.run('CALL db.awaitIndexes(300)');
      expect((await index()).settings).not.toEqual(wanted);
      await store.close();
      const writer = await Neo4jStore.open(server.target);
      await writer.upsert(searchBatches());
      const renewed = await index();
      expect(renewed.settings).toEqual(wanted);
      expect(await ids(writer)).toEqual(nearest);
      await writer.close();
      // An index with the settings already is left as it is.
      const again = await Neo4jStore.open(server.target);
      await again.upsert(searchBatches());
      expect((await index()).id).toBe(renewed.id);
      await again.close();
    } finally {
      await session.close();
      await driver.close();
    }
  });
});

describe('a Neo4j search with a deadline', () => {
  it('is stopped with a one-line answer once its deadline has passed, and runs within it', async () => {
    const store = await Neo4jStore.open(server.target);
    try {
      await store.clear();
      await store.upsert(searchBatches());
      // A tenth of a millisecond: gone after the first round trip to the server.
      await expect(store.search({ text: 'focaccia', timeoutSeconds: 0.0001 })).rejects.toThrow(
        /^the search ran longer than 0\.0001 s and was stopped: narrow it/,
      );
      const within = await store.search({ text: 'focaccia', timeoutSeconds: 30 });
      expect(within.hits.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
  });
});
