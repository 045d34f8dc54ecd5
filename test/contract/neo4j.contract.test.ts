import { afterAll, beforeAll } from 'vitest';
import { Neo4jStore } from '../../src/stores/neo4j/neo4j-store.js';
import { startNeo4j, type Neo4jServer } from '../support/neo4j-server.js';
import { storeContract } from './store-contract.js';
import { vectorContract } from './vector-contract.js';

let server: Neo4jServer;
beforeAll(async () => {
  server = await startNeo4j();
});
afterAll(async () => {
  await server.dispose();
});

// Community has one user database: each test starts from an emptied one.
storeContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});
vectorContract('Neo4j 5 over Bolt', async () => {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
});
