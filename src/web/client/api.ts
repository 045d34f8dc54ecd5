/** The web app's API as the page sees it (the wire format of src/web/api-routes.ts). */

export interface ConversationInfo {
  id: string;
  platformId: string;
  title: string | null;
  name: string;
  source: string;
  createdAt: string;
  updatedAt: string | null;
  messageCount: number;
}

export interface ToolCallView {
  name: string;
  input: string | null;
  output: string | null;
  isError: boolean;
}

export interface AttachmentView {
  type: string;
  name: string | null;
  mime_type: string | null;
  size_bytes: number | null;
  ref: string | null;
  /** Pasted or extracted text; null for other files. */
  text: string | null;
}

export interface CitationView {
  title: string | null;
  url: string | null;
  snippet: string | null;
}

export interface MessageView {
  id: string;
  role: string;
  content: string;
  createdAt: string;
  model: string | null;
  parentId: string | null;
  isThought: boolean;
  hidden: boolean;
  onShownThread: boolean;
  depth: number;
  toolCalls: ToolCallView[];
  attachments: AttachmentView[];
  citations: CitationView[];
}

export interface SearchHit {
  conversationId: string;
  platformConversationId: string;
  title: string;
  source: string;
  messageId: string;
  role: string;
  createdAt: string;
  snippet: string;
  score: number;
  attachment?: { id: string; name: string | null };
  why?: {
    keyword?: { rank: number };
    semantic?: { rank: number; similarity: number };
  };
}

export type SearchMode = 'keyword' | 'semantic' | 'hybrid';

export interface SearchResult {
  hits: SearchHit[];
  matches: number;
  matchesCapped: boolean;
  ranked: number;
  mode?: SearchMode;
  offset?: number;
  hint?: string;
  nearest?: SearchHit[];
  notice?: string;
  /** Memories matching the words (first page only). */
  memories?: (SearchHit & { memory?: { id: string; type: string; tags: string[] } })[];
}

export interface Stats {
  conversations: number;
  messages: number;
  bySource: { source: string; conversations: number; messages: number }[];
  byMonth: { month: string | null; source: string; messages: number }[];
  byRole: { role: string; messages: number }[];
  byModel: { model: string; messages: number }[];
}

export interface GraphView {
  nodes: { id: string; label: string; caption: string; properties: Record<string, unknown> }[];
  edges: { id: string; kind: string; from: string; to: string }[];
  focus: string | null;
  omitted: number;
}

export interface ProblemGroup {
  code: string;
  level: string;
  count: number;
  examples: { message: string; file?: string; record?: string }[];
}

export interface ImportJob {
  id: string;
  file: string;
  state: 'running' | 'done' | 'failed';
  progress?: { phase: string; bytesDone: number; bytesTotal: number; conversations: number };
  report?: {
    totals: {
      conversations: number;
      messages: number;
      branches: number;
      toolCalls: number;
      skipped: number;
    };
    written: { created: number; updated: number; unchanged: number; duplicates: number };
    problems: ProblemGroup[];
    graph: { written: number; unchanged: number };
  };
  error?: string;
}

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
