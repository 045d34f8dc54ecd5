import type { z } from 'zod';
import {
  resolveConversation,
  type QueryLimits,
  type Recaller,
  type SearchQuery,
} from '../api/query.js';
import type { GraphNode } from '../api/view.js';
import type { StoreReader } from '../index.js';
import type * as request from './api-requests.js';
import type { Answer } from './api-schema.js';

/**
 * The most graph nodes drawn at once: a larger conversation is cut around the focus. 1,200 keeps
 * a 500-message conversation whole with its tool calls (bench/history-views.mjs times it).
 */
export const GRAPH_NODE_LIMIT = 1200;

/** GET /api/conversations: a filtered, sorted page. */
export async function listConversations(
  store: StoreReader,
  query: z.output<typeof request.conversationsQuery>,
): Promise<Answer<'listConversations'>> {
  return store.listConversations({
    source: query.source,
    since: query.since,
    until: query.until,
    title: query.title,
    hasToolCalls: query.tools || undefined,
    hasBranches: query.branches || undefined,
    sort: query.sort,
    minMessages: query.minMessages > 0 ? query.minMessages : undefined,
    after: query.after,
    offset: query.offset,
    limit: query.limit,
  });
}

/** GET /api/search: ranked hits in any mode (hybrid by default once vectors exist), paged. */
export async function search(
  recaller: Recaller,
  query: z.output<typeof request.searchQuery>,
  limits: QueryLimits,
): Promise<Answer<'search'>> {
  return recaller.search(searchQueryOf(query, limits));
}

/** GET /api/search/conversations: the same search, one entry per conversation, paged by them. */
export async function searchConversations(
  recaller: Recaller,
  query: z.output<typeof request.searchQuery>,
  limits: QueryLimits,
): Promise<Answer<'searchConversations'>> {
  return recaller.searchConversations(searchQueryOf(query, limits));
}

function searchQueryOf(
  query: z.output<typeof request.searchQuery>,
  limits: QueryLimits,
): SearchQuery {
  // The web app's query timeout bounds a search as it does a Cypher query.
  const asked: SearchQuery = {
    text: query.q,
    limit: query.limit,
    offset: query.offset,
    timeoutSeconds: limits.timeoutSeconds,
  };
  if (query.mode !== undefined) asked.mode = query.mode;
  if (query.source) asked.source = query.source;
  if (query.role) asked.role = query.role;
  if (query.since) asked.since = query.since;
  if (query.until) asked.until = query.until;
  return asked;
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
  store: StoreReader,
  id: string,
  query: z.output<typeof request.graphQuery>,
): Promise<Answer<'graph'>> {
  const info = await resolveConversation(store, id);
  const batch = (await store.subgraph(info.id)) ?? { owner: info.id, nodes: [], edges: [] };
  const focus = query.message ?? null;
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
export async function cypher(
  store: StoreReader,
  body: z.output<typeof request.cypherBody>,
  limits: QueryLimits,
): Promise<Answer<'cypher'>> {
  const started = Date.now();
  const rows = await store.cypher(body.query, body.params ?? {}, limits);
  return { rows, milliseconds: Date.now() - started };
}
