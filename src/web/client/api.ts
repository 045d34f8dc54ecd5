/**
 * The web app's API as the page sees it. Its types are the server's own schemas
 * (src/web/api-responses.ts), read by this compilation for their types only: nothing of zod
 * reaches the browser (see tsconfig.json here). Each answer is read by a reader of its type
 * (answers.ts), never cast: one that does not fit is an error naming the endpoint and field.
 */
import { readAnswer, type Reader } from './read-json.js';

export type {
  AttachmentView,
  ConversationInfo,
  ConversationPage,
  ConversationSearchHit,
  ConversationSearchResult,
  GraphView,
  ImportJob,
  MemoryPage,
  MemoryView,
  MessageView,
  SearchHit,
  SearchMode,
  SearchResult,
  Stats,
  ToolCallView,
  TopicMapView,
  UsageView,
} from '../api-responses.js';
export type { ConversationListItem } from '../api-list-responses.js';
export type { CypherBody, RememberBody, ReviseBody } from '../api-requests.js';
export type { Answer } from '../api-schema.js';

/** An answer the server refused, with its reason. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The sentence of a refusal's body (`{"error": …}`, as every refusal and failure is sent), or
 * undefined when the body is not one (a proxy's page, a crash's text).
 */
export function errorOf(text: string): string | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return typeof body === 'object' &&
    body !== null &&
    'error' in body &&
    typeof body.error === 'string'
    ? body.error
    : undefined;
}

async function failureOf(response: Response): Promise<ApiFailure> {
  const text = await response.text();
  return new ApiFailure(response.status, errorOf(text) ?? (text.trim() || response.statusText));
}

// An endpoint as an error names it: its method and path, without the query.
const endpointOf = (method: string, path: string): string =>
  `${method} ${path.split('?')[0] ?? path}`;

/** GETs JSON from the API, read by `reader` (see answers.ts). */
export async function get<T>(path: string, reader: Reader<T>, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, signal ? { signal } : {});
  if (!response.ok) throw await failureOf(response);
  const body: unknown = await response.json();
  return readAnswer(endpointOf('GET', path), body, reader);
}

/** POSTs JSON to the API, its answer read by `reader` (see answers.ts). */
export async function post<T>(path: string, body: unknown, reader: Reader<T>): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failureOf(response);
  const answer: unknown = await response.json();
  return readAnswer(endpointOf('POST', path), answer, reader);
}
