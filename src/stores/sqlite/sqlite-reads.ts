// What the embedded store answers, read straight from its tables.
import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import type { GraphBatch, GraphEdge, GraphNode, PropertyValue } from '../../graph/graph-batch.js';
import { EDGE_KINDS, LABEL_NAMES, SHARED_LABELS, type Label } from '../../graph/schema.js';
import { pageBounds } from '../page-bounds.js';
import { conversationListing, cursorOf } from '../list-cursor.js';
import type {
  ConversationFilter,
  ConversationInfo,
  ConversationPage,
  ImportRecord,
  MessageRef,
  Stats,
  ThreadMessage,
} from '../store.js';
import { ATTACHMENT_COLUMNS, withAttachments } from '../thread-attachments.js';
import { treeOrder, type TreeRow } from '../thread-tree.js';
import { SQL } from './sqlite-dialect.js';
import { ownedEdges } from './sqlite-graph-writer.js';
import { MESSAGE_PART, columnsOf, quote, typesOf } from './sqlite-schema.js';
import { Flag, NullableText, Text, sqliteRow, sqliteRows } from './sqlite-rows.js';
import { ConversationRow, ListRow, MessageRefRow, STATS_ROWS } from '../store-rows.js';

const EdgeRow = z.object({ src: Text, dst: Text });

const INFO_COLUMNS = `id, conversation_id AS platformId, title, name, source, created_at AS createdAt, updated_at AS updatedAt, message_count AS messageCount`;
const LIST_COLUMNS = `${INFO_COLUMNS}, coalesce(preview, '') AS preview, model_slug AS model`;

/** A conversation by chatgraph's id or the platform's (chatgraph's first). */
export function conversationOf(db: Database.Database, id: string): ConversationInfo | undefined {
  const row = db
    .prepare(
      `SELECT ${INFO_COLUMNS} FROM "Conversation" WHERE id = @id OR conversation_id = @id ORDER BY id = @id DESC LIMIT 1`,
    )
    .get({ id });
  return sqliteRow(ConversationRow, row, 'conversation');
}

// Above every character a prefix can be followed by: `id >= p AND id < p + TOP` is "starts with p".
const TOP = '\u{10FFFF}';

/** Conversations whose id or platform id is in [@low, @high) (two index ranges). */
export const CONVERSATIONS_BY_PREFIX = `SELECT ${INFO_COLUMNS} FROM "Conversation" WHERE id >= @low AND id < @high
  UNION SELECT ${INFO_COLUMNS} FROM "Conversation" WHERE conversation_id >= @low AND conversation_id < @high
  ORDER BY id LIMIT @limit`;

/** Messages whose id or its message part is in [@low, @high) (two index ranges). */
export const MESSAGES_BY_PREFIX = `SELECT id, owner AS conversationId FROM "Message" WHERE id >= @low AND id < @high
  UNION SELECT id, owner AS conversationId FROM "Message" WHERE ${MESSAGE_PART} >= @low AND ${MESSAGE_PART} < @high
  ORDER BY id LIMIT @limit`;

/** Conversations whose id or platform id starts with `prefix` (two index ranges). */
export function conversationsByPrefixOf(
  db: Database.Database,
  prefix: string,
  limit: number,
): ConversationInfo[] {
  const rows = db.prepare(CONVERSATIONS_BY_PREFIX).all({ low: prefix, high: prefix + TOP, limit });
  return sqliteRows(ConversationRow, rows, 'conversation');
}

/** Messages whose id, or its message part, starts with `prefix` (two index ranges). */
export function messagesByPrefixOf(
  db: Database.Database,
  prefix: string,
  limit: number,
): MessageRef[] {
  const rows = db.prepare(MESSAGES_BY_PREFIX).all({ low: prefix, high: prefix + TOP, limit });
  return sqliteRows(MessageRefRow, rows, 'message ids');
}

// Flags are 0/1, or NULL in a store written before their column existed (read as false).
const MessageRow = z.object({
  id: Text,
  role: Text,
  content: Text,
  createdAt: Text,
  model: NullableText,
  parentId: NullableText,
  isThought: Flag,
  hidden: Flag,
  onShownThread: Flag,
}) satisfies z.ZodType<Omit<TreeRow, 'attachments'>, z.ZodTypeDef, unknown>;

const MESSAGE_COLUMNS = `id, role, content, created_at AS createdAt, model_slug AS model, parent_id AS parentId,
  is_thought AS isThought, hidden, on_shown_thread AS onShownThread`;

/** A conversation's messages: the shown thread in order, or every branch in tree order. */
export function threadOf(
  db: Database.Database,
  owner: string,
  allBranches: boolean,
): ThreadMessage[] {
  const attachments = db
    .prepare(`SELECT ${ATTACHMENT_COLUMNS.sql} FROM "Attachment" WHERE owner = ? ORDER BY rowid`)
    .all(owner);
  const toRows = (rows: unknown[]): TreeRow[] =>
    withAttachments(sqliteRows(MessageRow, rows, 'message'), attachments);
  if (!allBranches) {
    const rows = db
      .prepare(
        `SELECT ${MESSAGE_COLUMNS} FROM "Message" WHERE owner = ? AND position IS NOT NULL ORDER BY position`,
      )
      .all(owner);
    return toRows(rows).map((row, i) => ({ ...row, depth: i === 0 ? 0 : 1 }));
  }
  const rows = db
    .prepare(`SELECT ${MESSAGE_COLUMNS} FROM "Message" WHERE owner = ? ORDER BY rowid`)
    .all(owner);
  return treeOrder(toRows(rows));
}

const whereOf = (where: string[]): string =>
  where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';

/** The SELECT of a listing's rows (one more than the page, to know whether another follows). */
export function listingQuery(filter: ConversationFilter): {
  sql: string;
  params: Record<string, unknown>;
} {
  const listing = conversationListing(filter, SQL);
  const { limit, offset } = pageBounds(filter.limit ?? 20, filter.offset ?? 0);
  return {
    sql: `SELECT ${LIST_COLUMNS}, ${listing.key} AS sortKey FROM "Conversation" c ${whereOf(listing.rows.where)} ORDER BY ${listing.order} LIMIT @limit OFFSET @offset`,
    params: { ...listing.rows.params, limit: limit + 1, offset },
  };
}

/**
 * A page of conversations, filtered and sorted, with the count of all that match. Each sort
 * reads its index (`conversation_by_*`): a cursor seeks to where the last page ended.
 */
export function conversationPage(
  db: Database.Database,
  filter: ConversationFilter,
): ConversationPage {
  const { total: counted } = conversationListing(filter, SQL);
  const query = listingQuery(filter);
  const limit = Number(query.params.limit) - 1;
  const total = Number(
    db
      .prepare(`SELECT count(*) FROM "Conversation" c ${whereOf(counted.where)}`)
      .pluck()
      .get(counted.params),
  );
  const rows = sqliteRows(ListRow, db.prepare(query.sql).all(query.params), 'listed conversation');
  const more = rows.length > limit;
  const items = rows.slice(0, limit).map(({ sortKey: _key, ...item }) => item);
  const last = rows[limit - 1];
  return {
    total,
    items,
    nextCursor: more && last ? cursorOf(last.sortKey, last.id) : null,
  };
}

/** One conversation's nodes and edges, as the projection wrote them. */
export function subgraphOf(db: Database.Database, owner: string): GraphBatch {
  const edges: GraphEdge[] = [];
  for (const kind of EDGE_KINDS) {
    const rows = sqliteRows(
      EdgeRow,
      db.prepare(ownedEdges(kind, 'SELECT src, dst')).all({ owner }),
      kind,
    );
    for (const row of rows) edges.push({ kind, from: row.src, to: row.dst });
  }
  const shared = new Set<string>();
  for (const edge of edges) shared.add(edge.from).add(edge.to);
  const nodes: GraphNode[] = [];
  for (const label of LABEL_NAMES) {
    const columns = ['id', ...columnsOf(label)].map(quote).join(', ');
    const read = SHARED_LABELS.has(label)
      ? db
          .prepare(
            `SELECT ${columns} FROM ${quote(label)} WHERE id IN (SELECT value FROM json_each(?))`,
          )
          .all(JSON.stringify([...shared]))
      : db.prepare(`SELECT ${columns} FROM ${quote(label)} WHERE owner = ?`).all(owner);
    for (const row of withBooleans(label, sqliteRows(NodeRow, read, label))) {
      const { id, ...properties } = row;
      nodes.push({ label, id: String(id), properties });
    }
  }
  return { owner, nodes, edges };
}

// A node's columns: what the graph writes (text, integers, 0/1 for booleans) or NULL.
const NodeRow = z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]));

// SQLite stores booleans as 0/1; the graph (and Cypher) sees true/false.
function* withBooleans(
  label: Label,
  rows: Iterable<Record<string, PropertyValue>>,
): Generator<Record<string, PropertyValue>> {
  const booleans = Object.entries(typesOf(label))
    .filter(([, type]) => type === 'boolean')
    .map(([column]) => column);
  for (const row of rows) {
    for (const column of booleans)
      if (row[column] !== null && row[column] !== undefined) row[column] = row[column] === 1;
    yield row;
  }
}

/** Counts per source, month, role and model. */
export function statsOf(db: Database.Database): Stats {
  const one = (sql: string): number => Number(db.prepare(sql).pluck().get() ?? 0);
  const all = (sql: string): unknown[] => db.prepare(sql).all();
  return {
    conversations: one(`SELECT count(*) FROM "Conversation"`),
    messages: one(`SELECT count(*) FROM "Message"`),
    bySource: sqliteRows(
      STATS_ROWS.bySource,
      all(
        `SELECT source, count(*) AS conversations, coalesce(sum(message_count), 0) AS messages FROM "Conversation" GROUP BY source ORDER BY source`,
      ),
      'conversations by source',
    ),
    byMonth: sqliteRows(
      STATS_ROWS.byMonth,
      all(
        `SELECT nullif(mc.month, '') AS month, c.source AS source, sum(mc.messages) AS messages,
         count(DISTINCT mc.owner) AS conversations
       FROM message_counts mc JOIN "Conversation" c ON c.id = mc.owner
       GROUP BY mc.month, c.source ORDER BY mc.month, c.source`,
      ),
      'messages by month',
    ),
    byRole: sqliteRows(
      STATS_ROWS.byRole,
      all(
        `SELECT role, sum(messages) AS messages FROM message_counts GROUP BY role ORDER BY messages DESC, role`,
      ),
      'messages by role',
    ),
    byModel: sqliteRows(
      STATS_ROWS.byModel,
      all(
        `SELECT model, sum(messages) AS messages FROM message_counts WHERE model <> ''
       GROUP BY model ORDER BY messages DESC, model LIMIT 10`,
      ),
      'messages by model',
    ),
  };
}

/** Nodes per label and edges per kind. */
export function countsOf(db: Database.Database): {
  nodes: Record<string, number>;
  edges: Record<string, number>;
} {
  const count = (table: string): number =>
    Number(
      db
        .prepare(`SELECT count(*) FROM ${quote(table)}`)
        .pluck()
        .get(),
    );
  const nodes: Record<string, number> = {};
  const edges: Record<string, number> = {};
  for (const label of LABEL_NAMES) nodes[label] = count(label);
  for (const kind of EDGE_KINDS) edges[kind] = count(kind);
  return { nodes, edges };
}

const ImportRow = z.object({
  id: Text,
  sourceFile: Text,
  checksum: Text,
  importer: Text,
  importedAt: Text,
  size: z.number().nullable(),
  crc32: z.number().nullable(),
  redacted: z.number().nullable(),
});

/** The files imported so far, with what is known of each. */
export function importedFilesOf(db: Database.Database): ImportRecord[] {
  const rows = db
    .prepare(
      `SELECT id, source_file AS sourceFile, checksum, importer, imported_at AS importedAt, size, crc32, redacted FROM "Import"`,
    )
    .all();
  return sqliteRows(ImportRow, rows, 'import').map(({ size, crc32, redacted, ...rest }) => ({
    ...rest,
    ...(size !== null ? { size } : {}),
    ...(crc32 !== null ? { crc32 } : {}),
    ...(redacted !== null ? { redacted: redacted === 1 } : {}),
  }));
}

/** A message's conversation and place on its shown thread (null when off it). */
export function messagePlaceOf(
  db: Database.Database,
  messageId: string,
): { owner: string; position: number | null } | undefined {
  const row = db.prepare(`SELECT owner, position FROM "Message" WHERE id = ?`).get(messageId);
  return sqliteRow(z.object({ owner: Text, position: z.number().nullable() }), row, 'message');
}

/** The checksums of the files imported so far. */
export function importChecksumsOf(db: Database.Database): string[] {
  return sqliteRows(Text, db.prepare(`SELECT checksum FROM "Import"`).pluck().all(), 'import');
}
