/**
 * The process a keyword search of the embedded store runs in (started by `search-children`): it
 * opens the store read-only and answers each search over IPC, so a long search neither holds
 * its caller's event loop (a server answers its other requests meanwhile) nor outlives its
 * deadline (the parent kills this process then).
 */
import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import { QueryError, type SearchQuery } from '../store.js';
import { childKey, receiveChildKey } from '../../at-rest/sqlite-key.js';
import { openReadonly } from './open-readonly.js';
import { searchSqlite } from './sqlite-search.js';

const Ask = z.object({
  text: z.string(),
  offset: z.number().optional(),
  source: z.string().optional(),
  since: z.string().optional(),
  until: z.string().optional(),
  role: z.string().optional(),
  limit: z.number().optional(),
  snippetsPerConversation: z.number().optional(),
});

const file = process.argv[2];
if (file === undefined || process.send === undefined) {
  process.stderr.write('search-child: give the store file, and start it with an IPC channel\n');
  process.exit(2);
}
// The folder's key first, over stdin (never the environment), when it is encrypted.
await receiveChildKey();
const db = ((): Database.Database => {
  try {
    return openReadonly(file, childKey());
  } catch (error) {
    // One line the parent reads back (a damaged store becomes its "run reindex" error).
    process.stderr.write(
      `search-child: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
})();
// Started and the store open: the parent's clock for a search runs from here.
process.send({ ready: true });

process.on('message', (message: unknown) => {
  const ask = Ask.safeParse(message);
  if (!ask.success) {
    process.send?.({
      error: 'the search process was sent something that is not a search',
      query: false,
    });
    return;
  }
  const { text, offset, source, since, until, role, limit, snippetsPerConversation } = ask.data;
  const query: SearchQuery = {
    text,
    ...(offset !== undefined ? { offset } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(since !== undefined ? { since } : {}),
    ...(until !== undefined ? { until } : {}),
    ...(role !== undefined ? { role } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(snippetsPerConversation !== undefined ? { snippetsPerConversation } : {}),
  };
  try {
    process.send?.({ result: searchSqlite(db, query) });
  } catch (error) {
    process.send?.({
      error: error instanceof Error ? error.message : String(error),
      query: error instanceof QueryError,
    });
  }
});
// The parent went away (it closed the store, or was killed): nothing is left to answer.
process.on('disconnect', () => {
  db.close();
  process.exit(0);
});
