import { z } from 'zod';
import neo4j from 'neo4j-driver';
import type { GraphBatch, GraphEdge, GraphNode, PropertyValue } from '../../graph/graph-batch.js';
import { EDGE_KINDS, LABEL_NAMES, type EdgeKind, type Label } from '../../graph/schema.js';
import { conversationListing, cursorOf } from '../list-cursor.js';
import { pageBounds } from '../page-bounds.js';
import type {
  ConversationFilter,
  ConversationInfo,
  ConversationPage,
  MessageRef,
  Stats,
  ThreadMessage,
} from '../store.js';
import { treeOrder } from '../thread-tree.js';
import { ATTACHMENT_COLUMNS, withAttachments } from '../thread-attachments.js';
import { OWNED_LABELS, countEdges } from './neo4j-schema.js';
import {
  MessageRefRow,
  STATS_ROWS,
  conversationRows,
  listRows,
  messageRows,
  parseRows,
} from './neo4j-rows.js';
import { CYPHER } from './neo4j-search.js';
import type { Neo4jRead } from './neo4j-sessions.js';

const CONVERSATION_COLUMNS = `c.id AS id, c.conversation_id AS platformId, c.title AS title, c.name AS name,
  c.source AS source, c.created_at AS createdAt, c.updated_at AS updatedAt, c.message_count AS messageCount`;
const MESSAGE_COLUMNS = `m.id AS id, m.role AS role, coalesce(m.content, '') AS content, m.created_at AS createdAt,
  m.model_slug AS model, m.parent_id AS parentId, coalesce(m.is_thought, false) AS isThought,
  coalesce(m.hidden, false) AS hidden, coalesce(m.on_shown_thread, false) AS onShownThread`;

/** A conversation by its chatgraph id, else by the platform's id. */
export async function readConversation(
  read: Neo4jRead,
  id: string,
): Promise<ConversationInfo | undefined> {
  const [byId] = await read(`MATCH (c:Conversation {id: $id}) RETURN ${CONVERSATION_COLUMNS}`, {
    id,
  });
  if (byId) return conversationRows([byId])[0];
  const [byPlatform] = await read(
    `MATCH (c:Conversation {conversation_id: $id}) RETURN ${CONVERSATION_COLUMNS} ORDER BY c.id LIMIT 1`,
    { id },
  );
  return byPlatform ? conversationRows([byPlatform])[0] : undefined;
}

/** Conversations whose id or platform id starts with `prefix` (both indexed). */
export async function readConversationsByPrefix(
  read: Neo4jRead,
  prefix: string,
  limit: number,
): Promise<ConversationInfo[]> {
  const rows = await read(
    `CALL {
       MATCH (c:Conversation) WHERE c.id STARTS WITH $prefix RETURN c
       UNION MATCH (c:Conversation) WHERE c.conversation_id STARTS WITH $prefix RETURN c
     }
     RETURN ${CONVERSATION_COLUMNS} ORDER BY id LIMIT $limit`,
    { prefix, limit: neo4j.int(limit) },
  );
  return conversationRows(rows);
}

/** Messages whose id, or its message part (after the first `:`), starts with `prefix`. */
export async function readMessagesByPrefix(
  read: Neo4jRead,
  prefix: string,
  limit: number,
): Promise<MessageRef[]> {
  const rows = await read(
    `CALL {
       MATCH (m:Message) WHERE m.id STARTS WITH $prefix RETURN m
       UNION MATCH (m:Message) WHERE m.id CONTAINS $part RETURN m
     }
     WITH m WHERE m.id STARTS WITH $prefix OR substring(m.id, size(split(m.id, ':')[0]) + 1) STARTS WITH $prefix
     RETURN m.id AS id, m._owner AS conversationId ORDER BY id LIMIT $limit`,
    { prefix, part: `:${prefix}`, limit: neo4j.int(limit) },
  );
  return parseRows(MessageRefRow, rows, 'message ids');
}

/** The shown thread in order, or every branch in tree order; attachments on their messages. */
export async function readThread(
  read: Neo4jRead,
  conversation: ConversationInfo,
  allBranches: boolean,
): Promise<ThreadMessage[]> {
  const attachments = await read(
    `MATCH (a:Attachment {_owner: $id}) RETURN ${ATTACHMENT_COLUMNS.cypher} ORDER BY a.message_id, a.position`,
    { id: conversation.id },
  );
  if (!allBranches) {
    const rows = messageRows(
      await read(
        `MATCH (m:Message {_owner: $id}) WHERE m.position IS NOT NULL RETURN ${MESSAGE_COLUMNS} ORDER BY m.position`,
        { id: conversation.id },
      ),
    );
    return withAttachments(rows, attachments).map((row, i) => ({
      ...row,
      depth: i === 0 ? 0 : 1,
    }));
  }
  const rows = messageRows(
    await read(`MATCH (m:Message {_owner: $id}) RETURN ${MESSAGE_COLUMNS} ORDER BY m._seq`, {
      id: conversation.id,
    }),
  );
  return treeOrder(withAttachments(rows, attachments));
}

export async function readConversationPage(
  read: Neo4jRead,
  filter: ConversationFilter,
): Promise<ConversationPage> {
  const listing = conversationListing(filter, CYPHER);
  const { limit, offset } = pageBounds(filter.limit ?? 20, filter.offset ?? 0);
  const whereOf = (where: string[]): string =>
    where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
  const [total] = await read(
    `MATCH (c:Conversation) ${whereOf(listing.total.where)} RETURN count(c) AS n`,
    listing.total.params,
  );
  const rows = await read(
    `MATCH (c:Conversation) ${whereOf(listing.rows.where)}
     RETURN ${CONVERSATION_COLUMNS}, coalesce(c.preview, '') AS preview, c.model_slug AS model,
       ${listing.key} AS sortKey
     ORDER BY ${listing.order} SKIP $offset LIMIT $limit`,
    { ...listing.rows.params, offset: neo4j.int(offset), limit: neo4j.int(limit + 1) },
  );
  const items = listRows(rows);
  const more = items.length > limit;
  const last = items[limit - 1];
  return {
    total: Number(total?.n ?? 0),
    items: items.slice(0, limit).map(({ sortKey: _key, ...item }) => item),
    nextCursor: more && last ? cursorOf(last.sortKey, last.id) : null,
  };
}

export async function readStats(read: Neo4jRead): Promise<Stats> {
  const [totals] = await read(
    `CALL { MATCH (c:Conversation) RETURN count(c) AS conversations }
       CALL { MATCH (m:Message) RETURN count(m) AS messages }
       RETURN conversations, messages`,
  );
  return {
    conversations: Number(totals?.conversations ?? 0),
    messages: Number(totals?.messages ?? 0),
    bySource: parseRows(
      STATS_ROWS.bySource,
      await read(
        `MATCH (c:Conversation) RETURN c.source AS source, count(c) AS conversations,
           coalesce(sum(c.message_count), 0) AS messages ORDER BY source`,
      ),
      'stats by source',
    ),
    byMonth: parseRows(
      STATS_ROWS.byMonth,
      await read(
        `MATCH (c:Conversation)-[:HAS_MESSAGE]->(m:Message)
         RETURN substring(m.created_at, 0, 7) AS month, c.source AS source, count(m) AS messages,
           count(DISTINCT c) AS conversations
         ORDER BY month, source`,
      ),
      'stats by month',
    ),
    byRole: parseRows(
      STATS_ROWS.byRole,
      await read(
        `MATCH (m:Message) RETURN m.role AS role, count(m) AS messages ORDER BY messages DESC, role`,
      ),
      'stats by role',
    ),
    byModel: parseRows(
      STATS_ROWS.byModel,
      await read(
        `MATCH (m:Message) WHERE m.model_slug IS NOT NULL
         RETURN m.model_slug AS model, count(m) AS messages ORDER BY messages DESC, model LIMIT 10`,
      ),
      'stats by model',
    ),
  };
}

// A subgraph's rows: a node with its label (its `labels` list and property values), and an
// edge by its relationship type, which the graph's kinds name (STEP_NEXT and
// DERIVED_FROM_CONVERSATION share Neo4j's NEXT and DERIVED_FROM).
const SubgraphNodeRow = z.object({
  label: z.enum(LABEL_NAMES as [Label, ...Label[]]),
  node: z.record(z.string(), z.unknown()),
});

// A graph property is text, a number, a boolean or null; anything else another tool wrote on
// the node (a list, a map) is no property of the graph and is left out.
const graphProperties = (node: Record<string, unknown>): Record<string, PropertyValue> =>
  Object.fromEntries(
    Object.entries(node).filter(
      (entry): entry is [string, PropertyValue] =>
        entry[1] === null || ['string', 'number', 'boolean'].includes(typeof entry[1]),
    ),
  );
const SubgraphEdgeRow = z.object({
  type: z.string(),
  fromLabel: z.string(),
  from: z.unknown(),
  to: z.unknown(),
});
const EdgeKindSchema = z.enum(EDGE_KINDS as [EdgeKind, ...EdgeKind[]]);

/**
 * Every node the conversation owns, the shared nodes they touch, and every edge leaving an
 * owned node or reaching the Conversation from a shared one (IMPORTED, HAS_SESSION); one
 * indexed lookup per label, since a label-less property match would scan the database.
 */
export async function readSubgraph(read: Neo4jRead, owner: string): Promise<GraphBatch> {
  const owned = (match: (label: Label) => string): string =>
    OWNED_LABELS.map(match).join(' UNION ');
  const nodeRows = await read(
    `${owned((l) => `MATCH (n:${l} {_owner: $owner}) RETURN '${l}' AS label, n AS node`)}
       UNION ${owned((l) => `MATCH (:${l} {_owner: $owner})--(s) WHERE s._owner IS NULL RETURN labels(s)[0] AS label, s AS node`)}`,
    { owner },
  );
  const edgeRows = await read(
    `${owned((l) => `MATCH (a:${l} {_owner: $owner})-[r]->(b) RETURN type(r) AS type, '${l}' AS fromLabel, a.id AS from, b.id AS to`)}
       UNION MATCH (a)-[r]->(:Conversation {id: $owner}) WHERE a._owner IS NULL
       RETURN type(r) AS type, labels(a)[0] AS fromLabel, a.id AS from, $owner AS to`,
    { owner },
  );
  const nodes: GraphNode[] = parseRows(SubgraphNodeRow, nodeRows, 'subgraph node').map((row) => {
    const { labels: _labels, id, ...properties } = row.node;
    return { label: row.label, id: String(id), properties: graphProperties(properties) };
  });
  // Neo4j has one NEXT and one DERIVED_FROM type; the graph's kinds tell them apart by ends.
  const edges: GraphEdge[] = parseRows(SubgraphEdgeRow, edgeRows, 'subgraph edge').map((row) => ({
    kind:
      row.type === 'NEXT' && row.fromLabel === 'TraceStep'
        ? 'STEP_NEXT'
        : row.type === 'DERIVED_FROM' && row.to === owner
          ? 'DERIVED_FROM_CONVERSATION'
          : EdgeKindSchema.parse(row.type),
    from: String(row.from),
    to: String(row.to),
  }));
  return { owner, nodes, edges };
}

export async function readCounts(
  read: Neo4jRead,
): Promise<{ nodes: Record<string, number>; edges: Record<string, number> }> {
  const nodes: Record<string, number> = {};
  const edges: Record<string, number> = {};
  for (const label of LABEL_NAMES) {
    const [row] = await read(`MATCH (n:${label}) RETURN count(n) AS n`);
    nodes[label] = Number(row?.n ?? 0);
  }
  for (const kind of EDGE_KINDS) {
    const [row] = await read(countEdges(kind));
    edges[kind] = Number(row?.n ?? 0);
  }
  return { nodes, edges };
}
