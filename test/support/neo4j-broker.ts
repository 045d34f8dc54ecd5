import { createServer, type Server } from 'node:http';
import neo4j from 'neo4j-driver';
import { startNeo4j, type Neo4jServer } from './neo4j-server.js';

/** Where a test file finds the broker; `project.provide`d by the global set-up. */
export interface Neo4jBroker {
  url: string;
  close(): Promise<void>;
}

/** Empties the one user database Community has: data, indexes and constraints. */
async function resetDatabase(target: Neo4jServer['target']): Promise<void> {
  const driver = neo4j.driver(target.url, neo4j.auth.basic(target.user, target.password));
  const session = driver.session();
  try {
    await session.run('MATCH (n) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS');
    const constraints = await session.run('SHOW CONSTRAINTS YIELD name');
    for (const record of constraints.records)
      await session.run(`DROP CONSTRAINT \`${String(record.get('name'))}\` IF EXISTS`);
    // The two token-lookup indexes are Neo4j's own and cannot be dropped.
    const indexes = await session.run("SHOW INDEXES YIELD name, type WHERE type <> 'LOOKUP'");
    for (const record of indexes.records)
      await session.run(`DROP INDEX \`${String(record.get('name'))}\` IF EXISTS`);
  } finally {
    await session.close();
    await driver.close();
  }
}

/**
 * One real Neo4j for the whole test run, started on the first request, lent to one test file at
 * a time (a file holds it from its `beforeAll` to its `afterAll`) and emptied before each loan,
 * so files never see each other's data. It runs in the main vitest process, which owns the JVM.
 */
export async function startNeo4jBroker(): Promise<Neo4jBroker> {
  let server: Promise<Neo4jServer> | undefined;
  let holder: string | undefined;
  const waiting: (() => void)[] = [];
  const free = (): void => {
    holder = undefined;
    waiting.shift()?.();
  };
  const http: Server = createServer((request, response) => {
    const token = new URL(request.url ?? '/', 'http://broker').searchParams.get('file') ?? '?';
    if (request.url?.startsWith('/release')) {
      if (holder === token) free();
      response.end('{}');
      return;
    }
    const lend = async (): Promise<void> => {
      holder = token;
      try {
        server ??= startNeo4j();
        const running = await server;
        await resetDatabase(running.target);
        response.end(JSON.stringify(running.target));
      } catch (error) {
        server = undefined;
        free();
        response.statusCode = 500;
        response.end(String(error instanceof Error ? error.stack : error));
      }
    };
    if (holder === undefined) void lend();
    else
      waiting.push(() => {
        void lend();
      });
  });
  http.requestTimeout = 0;
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    close: async () => {
      await new Promise<void>((resolve) => {
        http.close(() => {
          resolve();
        });
      });
      if (server) await (await server).dispose();
    },
  };
}
