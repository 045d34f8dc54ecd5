/**
 * The process a user's Cypher runs in (started by `cypher-children`): it opens the store
 * read-only, projects what each query needs into its own Grafeo graph, and answers over IPC.
 * Nothing else reads that graph, and the parent kills this process at the query's deadline; the
 * operating system's memory limit stops a query that takes too much.
 */
import { childKey, receiveChildKey } from '../../at-rest/sqlite-key.js';
import { openReadonly } from './open-readonly.js';
import { z } from 'zod';
import { CypherProjection, WriteRefused } from '../cypher/grafeo-projection.js';
import { QueryError } from '../store.js';
import { dataInUse, limitOwnData } from './data-limit.js';
import { sqliteGraphSource } from './sqlite-graph-source.js';

const Ask = z.object({
  query: z.string(),
  params: z.record(z.unknown()),
  memoryMb: z.number().positive(),
});

/** What the child answers: rows, or the one-line error the user sees. */
export type ChildAnswer =
  { rows: Record<string, unknown>[] } | { error: string; query: boolean; wrote: boolean };

const file = process.argv[2];
// Set when the parent left the memory limit to this process, query by query (see below).
const perQuery = process.argv[3] === '--limit-each-query';
const send = (answer: ChildAnswer): void => {
  process.send?.(answer);
};

if (file === undefined || process.send === undefined) {
  process.stderr.write('cypher-child: give the store file, and start it with an IPC channel\n');
  process.exit(2);
}
// The folder's key first, over stdin (never the environment), when it is encrypted.
await receiveChildKey();
// As the store reads it: a read-only folder (no -shm can be made) is read from a copy in memory.
const db = openReadonly(file, childKey());
const projection = new CypherProjection(sqliteGraphSource(db));

process.on('message', (message: unknown) => {
  const ask = Ask.safeParse(message);
  if (!ask.success) {
    send({
      error: 'the query process was sent something that is not a query',
      query: false,
      wrote: false,
    });
    return;
  }
  const { query, params, memoryMb } = ask.data;
  // The graph a query reads is the store's own data: loading it is not the query's memory.
  // The limit binds what the query itself takes beyond it.
  // The parent's clock for the query starts once the graph is loaded (see cypher-children).
  const hooks = {
    beforeLoad: () => {
      if (perQuery) limitOwnData(undefined);
    },
    beforeQuery: () => {
      if (perQuery) limitOwnData(dataInUse() + memoryMb * 1024 * 1024);
      process.send?.({ loaded: true });
    },
  };
  projection.run(query, params, hooks).then(
    (rows) => {
      send({ rows });
    },
    (error: unknown) => {
      send({
        error: error instanceof Error ? error.message : String(error),
        query: error instanceof QueryError,
        wrote: error instanceof WriteRefused,
      });
    },
  );
});
// The parent went away (it closed the store, or was killed): nothing is left to answer.
process.on('disconnect', () => {
  projection.close();
  db.close();
  process.exit(0);
});
