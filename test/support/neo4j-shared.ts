import { request } from 'node:http';
import { afterAll, beforeAll, inject } from 'vitest';
import { z } from 'zod';
import type { Neo4jServer } from './neo4j-server.js';

declare module 'vitest' {
  interface ProvidedContext {
    neo4jBroker: string;
  }
}

const Target = z.object({ url: z.string(), user: z.string(), password: z.string() });

/** Waiting for the server can include its first start and other files' turns. */
const WAIT_MS = 20 * 60_000;

/** A POST to the broker with no client-side time limit (fetch's would end a long wait). */
function post(url: string): Promise<{ ok: boolean; body: string }> {
  return new Promise((resolve, reject) => {
    const call = request(url, { method: 'POST' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        resolve({ ok: response.statusCode === 200, body });
      });
    });
    call.on('error', reject);
    call.end();
  });
}

/**
 * The run's one Neo4j, for this test file: borrowed (emptied) in `beforeAll`, given back in
 * `afterAll`; `target` is valid inside the file's tests. A file that must kill the server starts
 * its own with `startNeo4j` instead.
 */
export function useNeo4j(): { readonly target: Neo4jServer['target'] } {
  const broker = inject('neo4jBroker');
  const file = `${String(process.pid)}-${String(Math.random()).slice(2)}`;
  let target: Neo4jServer['target'] | undefined;
  beforeAll(async () => {
    const { ok, body } = await post(`${broker}/acquire?file=${file}`);
    if (!ok) throw new Error(`the shared Neo4j did not start:\n${body}`);
    target = Target.parse(JSON.parse(body));
  }, WAIT_MS);
  afterAll(async () => {
    if (target === undefined) return;
    await post(`${broker}/release?file=${file}`);
  });
  return {
    get target() {
      if (target === undefined) throw new Error('the shared Neo4j is not borrowed yet');
      return target;
    },
  };
}
