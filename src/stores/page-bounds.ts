import { QueryError } from './store.js';

/** The largest page (`--limit`) a search or a listing takes. */
export const MAX_SEARCH_LIMIT = 1000;

/** Checks a search or listing page: a limit from 1 to {@link MAX_SEARCH_LIMIT}, an offset ≥ 0. */
export function pageBounds(
  limit: number,
  offset: number,
  limitName = 'limit',
): { limit: number; offset: number } {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw new QueryError(`${limitName} must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`);
  }
  if (!Number.isInteger(offset) || offset < 0)
    throw new QueryError('offset must be a whole number, 0 or more');
  return { limit, offset };
}
