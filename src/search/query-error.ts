/**
 * A query error meant for the user: the engine's message, in one line. Here, below the stores,
 * because reading what a person typed (`search-terms.ts`) refuses a query with it too.
 */
export class QueryError extends Error {
  override readonly name = 'QueryError';
}
