import { QueryError, type QueryLimits } from './store.js';

/** The CLI's limits: one person waiting at a terminal. */
export const CLI_QUERY_LIMITS: QueryLimits = { timeoutSeconds: 30, memoryMb: 512 };

/** The web app's and the MCP server's limits: a long-running server answering others too. */
export const SERVER_QUERY_LIMITS: QueryLimits = { timeoutSeconds: 10, memoryMb: 512 };

/** Which configurable limit stopped a query, and its figure (seconds, or MB). */
export interface ExceededLimit {
  kind: 'timeout' | 'memory';
  value: number;
}

/**
 * A query stopped by a limit (time, memory, or too many at once): one sentence for the user.
 * A configurable limit is named in `limit` and left out of the sentence: where it is set is
 * each shell's to say in its own words (a CLI flag, an MCP server's option).
 */
export class QueryLimitError extends QueryError {
  constructor(
    message: string,
    readonly limit?: ExceededLimit,
  ) {
    super(message);
  }
}

/**
 * Too many searches or queries run at once: the server is busy, not the query wrong. A web
 * answer says so with 503 and `Retry-After` (the seconds in {@link retryAfterSeconds}).
 */
export class TooManyRunningError extends QueryLimitError {
  readonly retryAfterSeconds = 1;
}

/**
 * Reads `--query-timeout <s>` and `--query-memory <MB>` (either may be absent) over defaults;
 * a value that is not a positive number is an error naming the option.
 */
export function queryLimits(
  given: { queryTimeout?: string | undefined; queryMemory?: string | undefined },
  defaults: QueryLimits,
): QueryLimits {
  const read = (value: string | undefined, option: string, fallback: number): number => {
    if (value === undefined) return fallback;
    const number = Number(value);
    if (!Number.isFinite(number) || number <= 0)
      throw new QueryError(`${option} takes a positive number, not "${value}"`);
    return number;
  };
  return {
    timeoutSeconds: read(given.queryTimeout, '--query-timeout', defaults.timeoutSeconds),
    memoryMb: read(given.queryMemory, '--query-memory', defaults.memoryMb),
  };
}

/** The deadline of a search unless its caller gives one (a server gives its query timeout). */
export const SEARCH_TIMEOUT_SECONDS = 30;

/** A search stopped at its deadline, in one line that says what to do. */
export function searchTimedOut(seconds: number): QueryLimitError {
  return new QueryLimitError(
    `the search ran longer than ${String(seconds)} s and was stopped: narrow it (rarer words, longer prefixes, a filter) or give it more time`,
    { kind: 'timeout', value: seconds },
  );
}
