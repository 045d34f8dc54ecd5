import { ensureEmbeddingModel } from './embedding-model.js';
import { buildNeo4j } from './neo4j-server.js';

/**
 * Once before any test file: the Neo4j launcher is built here, never by two files at once, and
 * the embedding model is fetched (a no-op when installed).
 */
export default async function setup(): Promise<void> {
  buildNeo4j();
  await ensureEmbeddingModel();
}
