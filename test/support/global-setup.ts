import { mkdtempSync, rmSync } from 'node:fs';
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
 * Every temporary folder of the run (the tests' own and their CLIs') is made in one folder of
 * the run, removed at the end: left in the system's, a day of runs filled the disk (19,000
 * folders, 70 GB). CHATGRAPH_KEEP_TEST_DIRS=1 keeps it, to look at what a test wrote.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const runDir = mkdtempSync(join(tmpdir(), 'chatgraph-run-'));
  process.env.TMPDIR = runDir;
  process.env.XDG_CONFIG_HOME = mkdtempSync(join(runDir, 'chatgraph-config-'));
  delete process.env.CHATGRAPH_CONFIG;
  buildNeo4j();
  await ensureEmbeddingModel();
  const broker = await startNeo4jBroker();
  project.provide('neo4jBroker', broker.url);
  return async () => {
    await broker.close();
    if (process.env.CHATGRAPH_KEEP_TEST_DIRS !== '1')
      rmSync(runDir, { recursive: true, force: true, maxRetries: 3 });
  };
}
