import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureEmbeddingModel } from './embedding-model.js';
import { startNeo4jBroker } from './neo4j-broker.js';
import { buildNeo4j } from './neo4j-server.js';

/**
 * Once before any test file: the Neo4j launcher is built here, never by two files at once; the
 * broker of the run's one Neo4j starts (the server itself on the first file that asks); and the
 * embedding model is fetched (a no-op when installed). The teardown stops the server. The
 * test files (and the CLIs they start) read an empty config folder, never the user's own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'chatgraph-config-'));
  delete process.env.CHATGRAPH_CONFIG;
  buildNeo4j();
  await ensureEmbeddingModel();
  const broker = await startNeo4jBroker();
  project.provide('neo4jBroker', broker.url);
  return () => broker.close();
}
