/**
 * The web app's API as the page sees it. Its types are the server's own schemas
 * (src/web/api-responses.ts), read by this compilation for their types only: nothing of zod
 * reaches the browser (see tsconfig.json here).
 */
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

async function failureOf(response: Response): Promise<ApiFailure> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: string };
    return new ApiFailure(response.status, body.error ?? text);
  } catch {
    return new ApiFailure(response.status, text.trim() || response.statusText);
  }
}

/** GETs JSON from the API. */
export async function get<T>(path: string, signal?: AbortSignal): Promise<T> {
  const response = await fetch(path, signal ? { signal } : {});
  if (!response.ok) throw await failureOf(response);
  return (await response.json()) as T;
}

/** POSTs JSON to the API. */
export async function post<T>(path: string, body: unknown): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw await failureOf(response);
  return (await response.json()) as T;
}
