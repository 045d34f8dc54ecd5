import {
  QueryError,
  QueryLimitError,
  bundleDir,
  readBundleConversation,
  type ConversationFilter,
  type GraphBatch,
  type GraphNode,
  type QueryLimits,
  type Recaller,
  type SearchQuery,
  type Store,
  type ThreadMessage,
} from '../index.js';
import { attachmentViews } from './attachment-views.js';

/** A JSON answer: a status and a body. */
export interface ApiAnswer {
  status: number;
  body: unknown;
}

/** A request error the browser shows as it is. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

/** The most graph nodes drawn at once: a larger conversation is cut around the focus. */
export const GRAPH_NODE_LIMIT = 300;

function text(params: URLSearchParams, name: string): string | undefined {
  const value = params.get(name)?.trim();
  return value ? value : undefined;
}

function integer(params: URLSearchParams, name: string, fallback: number): number {
  const value = params.get(name);
  if (value === null || value === '') return fallback;
  const number = Number(value);
  // Past 2^53 a number is no longer whole in JavaScript, nor a row count.
  if (!Number.isSafeInteger(number)) throw new ApiError(400, `${name} must be a whole number`);
  return number;
}

/** GET /api/conversations: a filtered, sorted page. */
export async function listConversations(store: Store, params: URLSearchParams): Promise<unknown> {
  const sort = params.get('sort');
  if (sort !== null && sort !== 'newest' && sort !== 'oldest' && sort !== 'most-messages')
    throw new ApiError(400, 'sort takes newest, oldest or most-messages');
  const filter: ConversationFilter = {
    source: text(params, 'source'),
    since: text(params, 'since'),
    until: text(params, 'until'),
    title: text(params, 'title'),
    hasToolCalls: params.get('tools') === '1' || undefined,
    hasBranches: params.get('branches') === '1' || undefined,
    sort: sort ?? 'newest',
    offset: integer(params, 'offset', 0),
    limit: integer(params, 'limit', 50),
  };
  return store.listConversations(filter);
}

/** GET /api/sources: the sources present, for the filters. */
export async function sources(store: Store): Promise<unknown> {
  return store.sources();
}

interface ToolCallView {
  name: string;
  input: string | null;
  output: string | null;
  isError: boolean;
}

/**
 * GET /api/conversations/:id: every message of every branch in tree order (the browser shows
 * the shown thread and switches branches at forks), each with its tool calls from the graph,
 * and its attachments and citations from the bundle when the data folder has it (pasted or
 * extracted text from the graph).
 */
export async function conversation(store: Store, dataDir: string, id: string): Promise<unknown> {
  const info = await store.conversation(id);
  if (!info) throw new ApiError(404, `no conversation with id ${id}`);
  const [messages, graph, pam] = await Promise.all([
    store.thread(info.id, { allBranches: true }),
    store.subgraph(info.id),
    readBundleConversation(bundleDir(dataDir), info.id),
  ]);
  const calls = new Map<string, ToolCallView[]>();
  if (graph) {
    const byId = new Map(graph.nodes.map((n) => [n.id, n]));
    for (const edge of graph.edges) {
      if (edge.kind !== 'USED_TOOL') continue;
      const call = byId.get(edge.to)?.properties;
      if (!call) continue;
      const list = calls.get(edge.from) ?? [];
      list.push({
        name: String(call.name ?? 'tool'),
        input: typeof call.input === 'string' ? call.input : null,
        output: typeof call.output === 'string' ? call.output : null,
        isError: call.is_error === true,
      });
      calls.set(edge.from, list);
    }
  }
  const extras = new Map(
    (pam?.messages ?? []).map((m) => [
      `${info.id}:${m.id}`,
      { attachments: m.attachments, citations: m.citations },
    ]),
  );
  return {
    conversation: info,
    messages: messages.map((message: ThreadMessage) => ({
      ...message,
      toolCalls: calls.get(message.id) ?? [],
      attachments: attachmentViews(extras.get(message.id)?.attachments, message.attachments),
      citations: extras.get(message.id)?.citations ?? [],
    })),
  };
}

/** GET /api/search: ranked hits in any mode (hybrid by default once vectors exist), paged. */
export async function search(recaller: Recaller, params: URLSearchParams): Promise<unknown> {
  const query: SearchQuery = {
    text: params.get('q') ?? '',
    limit: integer(params, 'limit', 30),
    offset: integer(params, 'offset', 0),
  };
  const mode = text(params, 'mode');
  if (mode !== undefined) {
    if (mode !== 'keyword' && mode !== 'semantic' && mode !== 'hybrid')
      throw new ApiError(400, 'mode takes keyword, semantic or hybrid');
    query.mode = mode;
  }
  const source = text(params, 'source');
  const role = text(params, 'role');
  const since = text(params, 'since');
  const until = text(params, 'until');
  if (source) query.source = source;
  if (role) query.role = role;
  if (since) query.since = since;
  if (until) query.until = until;
  return recaller.search(query);
}

/** GET /api/similar/:messageId: messages close in meaning to one message. */
export async function similar(
  recaller: Recaller,
  messageId: string,
  params: URLSearchParams,
): Promise<unknown> {
  return { hits: await recaller.similar(messageId, Math.min(50, integer(params, 'limit', 10))) };
}

/** What the browser draws of one node. */
interface DrawnNode {
  id: string;
  label: string;
  caption: string;
  properties: GraphNode['properties'];
}

function captionOf(node: GraphNode): string {
  const p = node.properties;
  const short = (value: unknown, size = 40): string => {
    const text = typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : '';
    return text.length > size ? `${text.slice(0, size - 1)}…` : text;
  };
  switch (node.label) {
    case 'Conversation':
      return short(p.name, 50);
    case 'Message':
      return `${String(p.role)}: ${short(p.content, 30)}`;
    case 'ToolCall':
      return `tool ${short(p.name, 30)}`;
    case 'TraceStep':
      return `step ${String(p.step)}: ${short(p.action, 30)}`;
    case 'DecisionTrace':
      return `trace: ${short(p.task, 30)}`;
    case 'File':
    case 'Project':
      return short(p.path, 40);
    default:
      return short(p.name ?? p.title ?? p.source_file ?? node.label, 40);
  }
}

/**
 * GET /api/graph/:id?message=: the conversation's neighbourhood (messages of every branch,
 * tool calls, traces, its document and shared nodes); past {@link GRAPH_NODE_LIMIT} nodes, the
 * messages nearest the focus message (or the start) are kept and the cut is reported.
 */
export async function graph(
  store: Store,
  id: string,
  params: URLSearchParams,
): Promise<{
  nodes: DrawnNode[];
  edges: { id: string; kind: string; from: string; to: string }[];
  focus: string | null;
  omitted: number;
}> {
  const info = await store.conversation(id);
  if (!info) throw new ApiError(404, `no conversation with id ${id}`);
  const batch = (await store.subgraph(info.id)) as GraphBatch;
  const focus = text(params, 'message') ?? null;
  let nodes = batch.nodes;
  let omitted = 0;
  if (nodes.length > GRAPH_NODE_LIMIT) {
    const order = (await store.thread(info.id, { allBranches: true })).map((m) => m.id);
    const at = Math.max(0, focus ? order.indexOf(focus) : 0);
    const budget = Math.floor(GRAPH_NODE_LIMIT / 3);
    const kept = new Set(order.slice(Math.max(0, at - budget), at + budget));
    const attached = new Set<string>();
    for (const edge of batch.edges) if (kept.has(edge.from)) attached.add(edge.to);
    nodes = nodes.filter(
      (n) =>
        n.label === 'Conversation' ||
        kept.has(n.id) ||
        (n.label !== 'Message' && attached.has(n.id)),
    );
    nodes = nodes.slice(0, GRAPH_NODE_LIMIT);
    omitted = batch.nodes.length - nodes.length;
  }
  const present = new Set(nodes.map((n) => n.id));
  return {
    nodes: nodes.map((n) => ({
      id: n.id,
      label: n.label,
      caption: captionOf(n),
      properties: n.properties,
    })),
    edges: batch.edges
      .filter((e) => present.has(e.from) && present.has(e.to))
      .map((e, i) => ({
        id: `e${i}`,
        kind: e.kind === 'STEP_NEXT' ? 'NEXT' : e.kind,
        from: e.from,
        to: e.to,
      })),
    focus,
    omitted,
  };
}

/** POST /api/cypher: read-only Cypher, rows as JSON. */
export async function cypher(store: Store, body: unknown, limits: QueryLimits): Promise<unknown> {
  const { query, params } = (body ?? {}) as { query?: unknown; params?: unknown };
  if (typeof query !== 'string' || query.trim() === '') throw new ApiError(400, 'give a query');
  if (
    params !== undefined &&
    (params === null || typeof params !== 'object' || Array.isArray(params))
  )
    throw new ApiError(400, 'params must be a JSON object');
  const started = Date.now();
  const rows = await store.cypher(query, (params ?? {}) as Record<string, unknown>, limits);
  return { rows, milliseconds: Date.now() - started };
}

/** An error as the answer the browser gets. */
export function errorAnswer(error: unknown): ApiAnswer | undefined {
  if (error instanceof ApiError) return { status: error.status, body: { error: error.message } };
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
  if (error instanceof QueryError) return { status: 400, body: { error: error.message } };
  // decodeURIComponent of a path, header or cookie with a malformed % escape.
  if (error instanceof URIError)
    return { status: 400, body: { error: 'the request has a malformed % escape' } };
  return undefined;
}
