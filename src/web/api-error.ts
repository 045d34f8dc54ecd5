import {
  AmbiguousIdError,
  QueryError,
  QueryLimitError,
  TooManyRunningError,
  UnknownIdError,
} from '../api/query.js';
import { WriteLockBusyError } from '../index.js';

/** A JSON answer: a status and a body. */
export interface ApiAnswer {
  status: number;
  body: { error: string };
  headers?: Record<string, string>;
}

/** The seconds a refused writer is told to wait before it tries again. */
export const RETRY_AFTER_SECONDS = 5;

/** A request error the browser shows as it is. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

/** An error as the answer the browser gets. */
export function errorAnswer(error: unknown): ApiAnswer | undefined {
  if (error instanceof ApiError) return { status: error.status, body: { error: error.message } };
  // Busy, not wrong: the same request answers once a running one ends.
  if (error instanceof TooManyRunningError)
    return {
      status: 503,
      body: { error: error.message },
      headers: { 'Retry-After': String(error.retryAfterSeconds) },
    };
  if (error instanceof QueryLimitError && error.limit) {
    // In the web app's words: a limit of the server, chosen by whoever starts it.
    const option = error.limit.kind === 'timeout' ? '--query-timeout' : '--query-memory';
    return {
      status: 400,
      body: {
        error: `${error.message} (the web app's limit, set when it is started: chatgraph serve ${option})`,
      },
    };
  }
  // An id typed short: no such conversation, or the start of several (which one is the conflict).
  if (error instanceof UnknownIdError) return { status: 404, body: { error: error.message } };
  if (error instanceof AmbiguousIdError) return { status: 409, body: { error: error.message } };
  if (error instanceof QueryError) return { status: 400, body: { error: error.message } };
  if (error instanceof WriteLockBusyError)
    return {
      status: 503,
      body: { error: error.message },
      headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
    };
  // decodeURIComponent of a path, header or cookie with a malformed % escape.
  if (error instanceof URIError)
    return { status: 400, body: { error: 'the request has a malformed % escape' } };
  return undefined;
}
