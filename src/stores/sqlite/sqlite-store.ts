import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { GraphBatch, GraphEdge, GraphNode } from '../../graph/graph-batch.js';
import {
  EDGE_KINDS,
  LABEL_NAMES,
  SHARED_LABELS,
  type EdgeKind,
  type Label,
} from '../../graph/schema.js';
import { batchHash } from '../batch-hash.js';
import { conversationConditions, conversationOrder } from '../query-conditions.js';
import { pageBounds } from '../page-bounds.js';
import { messageContextAt, treeOrder, type TreeRow } from '../thread-tree.js';
import { assertReadOnly, footprint } from '../cypher/cypher-text.js';
import { CLI_QUERY_LIMITS } from '../query-limits.js';
import { CypherChildren } from './cypher-children.js';
import { ATTACHMENT_COLUMNS, withAttachments } from '../thread-attachments.js';
import {
  QueryError,
  type ConversationFilter,
  type ConversationInfo,
  type ConversationPage,
  type GraphWriter,
  type HashedBatch,
  type ImportRecord,
  type QueryLimits,
  type Row,
  type SearchQuery,
  type SearchResult,
  type Stats,
  type Store,
  type ThreadMessage,
  type WriteReport,
} from '../store.js';
import { SqliteMemories } from './sqlite-memories.js';
import { SqliteVectors } from './sqlite-vectors.js';
import { searchSqlite } from './sqlite-search.js';
import { SQL } from './sqlite-dialect.js';
import {
  FULL_TEXT,
  clearFullText,
  fullTextMissing,
  fullTextWriter,
  upgradeFullText,
} from './full-text.js';
import { columnsOf, ownedBySource, quote, schemaStatements, typesOf } from './sqlite-schema.js';
import { openReadonly } from './open-readonly.js';

type Statement = Database.Statement;

/** Conversations per commit, and the longest a group stays open (readers see it then). */
const GROUP_SIZE = 2000;
const GROUP_MILLISECONDS = 3000;

/**
 * The embedded store: the graph as SQLite tables (WAL, so readers go on while an import
 * writes), FTS5 for ranked search, and Cypher through an in-memory Grafeo projection.
 */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly insertNode = new Map<Label, Statement>();
  private readonly insertEdge = new Map<EdgeKind, Statement>();
  private readonly deleteNodes = new Map<Label, Statement>();
  private readonly deleteEdges = new Map<EdgeKind, Statement>();
  private readonly queries: CypherChildren;
  private readonly writeBatch: (batch: HashedBatch, hash: string, deep: boolean) => void;
  /** The store's vectors (semantic search), dropped with their conversation. */
  readonly vectors: SqliteVectors;
  /** The bundle's memories as Memory nodes, searchable by words. */
  readonly memories: SqliteMemories;
  private readonly removeConversation: (owner: string) => void;

  private constructor(
    readonly file: string,
    readonly: boolean,
    // Off when an old store is brought up to date only to be read (a rebuild waits for a write).
    retokenize = true,
  ) {
    if (!readonly) mkdirSync(dirname(file), { recursive: true });
    this.db = readonly ? openReadonly(file) : new Database(file);
    this.db.pragma('busy_timeout = 10000');
    this.vectors = new SqliteVectors(this.db);
    this.memories = new SqliteMemories(this.db);
    if (!readonly) {
      // Replaced and deleted rows are overwritten, not left in free pages: a conversation
      // re-imported with --redact, or deleted, leaves none of its old bytes in the file.
      this.db.pragma('secure_delete = ON');
      // 8 KB pages suit rows of chat text (set before WAL, which fixes the page size).
      this.db.pragma('page_size = 8192');
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      // Keys are random UUIDs: with SQLite's 2 MB default cache every index insert went to disk.
      this.db.pragma('cache_size = -131072');
      this.db.pragma('temp_store = MEMORY');
      // Checkpoint the WAL every 64 MB rather than 4 MB: fewer, larger copies during an import.
      this.db.pragma('wal_autocheckpoint = 16384');
      const missing = fullTextMissing(this.db);
      for (const statement of schemaStatements()) this.db.exec(statement);
      SqliteVectors.createSchema(this.db);
      SqliteMemories.createSchema(this.db);
      this.addMissingColumns();
      this.backfillMessageCounts();
      upgradeFullText(this.db, retokenize, missing);
      // The same for the search indexes: FTS5 otherwise keeps a deleted row's words until a merge.
      for (const { table } of FULL_TEXT)
        this.db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('secure-delete', 1)`);
      for (const label of LABEL_NAMES) {
        const columns = ['id', 'owner', ...columnsOf(label)];
        this.insertNode.set(
          label,
          this.db.prepare(
            `INSERT INTO ${quote(label)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
             ON CONFLICT(id) DO UPDATE SET ${columns
               .slice(1)
               .map((c) => `${quote(c)} = excluded.${quote(c)}`)
               .join(', ')}`,
          ),
        );
        this.deleteNodes.set(label, this.db.prepare(`DELETE FROM ${quote(label)} WHERE owner = ?`));
      }
      for (const kind of EDGE_KINDS) {
        this.insertEdge.set(
          kind,
          this.db.prepare(
            `INSERT OR IGNORE INTO ${quote(kind)} (src, dst, owner) VALUES (?, ?, ?)`,
          ),
        );
        const owned = ownedBySource(kind);
        this.deleteEdges.set(
          kind,
          this.db.prepare(
            owned === 'equal'
              ? `DELETE FROM ${quote(kind)} WHERE src = @owner`
              : owned === 'prefix'
                ? `DELETE FROM ${quote(kind)} WHERE src >= @owner || ':' AND src < @owner || ';'`
                : `DELETE FROM ${quote(kind)} WHERE owner = @owner`,
          ),
        );
      }
      const fullText = fullTextWriter(this.db);
      const state = this.db.prepare(
        `INSERT INTO conversation_state (id, content_hash, deep) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET content_hash = excluded.content_hash, deep = excluded.deep`,
      );
      const countsDelete = this.db.prepare(`DELETE FROM message_counts WHERE owner = ?`);
      const countsInsert = this.db.prepare(
        `INSERT INTO message_counts (owner, month, role, model, messages) VALUES (?, ?, ?, ?, ?)`,
      );
      const bump = this.db.prepare(
        `INSERT INTO meta (key, value) VALUES ('version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      );
      const removeOwned = (owner: string): void => {
        fullText.removeOwner(owner);
        this.vectors.dropOwner(owner);
        for (const label of LABEL_NAMES)
          if (!SHARED_LABELS.has(label)) this.deleteNodes.get(label)?.run(owner);
        for (const kind of EDGE_KINDS) this.deleteEdges.get(kind)?.run({ owner });
      };
      const stateDelete = this.db.prepare(`DELETE FROM conversation_state WHERE id = ?`);
      this.removeConversation = (owner: string) => {
        removeOwned(owner);
        countsDelete.run(owner);
        stateDelete.run(owner);
        bump.run(`deleted-${Date.now()}`);
      };
      // Runs inside the open group's transaction (see flush): no savepoint per conversation,
      // since FTS5 flushes a segment at every savepoint as it does at every commit.
      this.writeBatch = (batch: HashedBatch, hash: string, deep: boolean) => {
        removeOwned(batch.owner);
        for (const node of batch.nodes) {
          const owner = SHARED_LABELS.has(node.label) ? null : batch.owner;
          const info = this.insertNode.get(node.label)?.run(...rowOf(node, owner));
          // The conversation's rows were just deleted, so this was an insert with a fresh rowid.
          if (info) fullText.add(node.label, info.lastInsertRowid, node.properties.content);
        }
        for (const edge of batch.edges)
          this.insertEdge.get(edge.kind)?.run(edge.from, edge.to, batch.owner);
        countsDelete.run(batch.owner);
        for (const [key, messages] of messageCounts(batch))
          countsInsert.run(batch.owner, ...key.split('\u0000'), messages);
        state.run(batch.owner, hash, deep ? 1 : 0);
        bump.run(String(Date.now()) + Math.random().toString(36).slice(2, 6));
      };
    } else {
      this.writeBatch = this.removeConversation = () => {
        throw new Error('the store is open read-only');
      };
    }
    this.stateOf = this.db.prepare(
      `SELECT content_hash, deep FROM conversation_state WHERE id = ?`,
    );
    this.queries = new CypherChildren(file);
  }

  // A store made before message_counts existed: count its messages once.
  private backfillMessageCounts(): void {
    const empty = this.db.prepare(`SELECT NOT EXISTS (SELECT 1 FROM message_counts)`).pluck().get();
    const messages = this.db.prepare(`SELECT EXISTS (SELECT 1 FROM "Message")`).pluck().get();
    if (empty === 1 && messages === 1) {
      this.db.exec(
        `INSERT INTO message_counts (owner, month, role, model, messages)
         SELECT owner, coalesce(substr(created_at, 1, 7), ''), coalesce(role, ''), coalesce(model_slug, ''), count(*)
         FROM "Message" WHERE owner IS NOT NULL GROUP BY 1, 2, 3, 4`,
      );
    }
  }

  // A store made by an older version lacks the properties added since: add them (empty).
  private addMissingColumns(): void {
    for (const label of LABEL_NAMES) {
      const have = new Set(
        (this.db.prepare(`PRAGMA table_info(${quote(label)})`).all() as { name: string }[]).map(
          (c) => c.name,
        ),
      );
      const types = typesOf(label);
      for (const column of columnsOf(label)) {
        if (!have.has(column)) {
          this.db.exec(
            `ALTER TABLE ${quote(label)} ADD COLUMN ${quote(column)} ${types[column] === 'string' ? 'TEXT' : 'INTEGER'}`,
          );
        }
      }
    }
  }

  /** Opens (creating) the store file. */
  static open(file: string, options: { readonly?: boolean } = {}): SqliteStore {
    // A store made by an older version is brought up to date before it is read.
    if (options.readonly && existsSync(file) && outdated(file))
      new SqliteStore(file, false, false).db.close();
    return new SqliteStore(file, options.readonly ?? false);
  }

  private pending = 0;
  private readonly stateOf: Statement;
  private openedAt = 0;

  /**
   * Commits the open group of conversations. Conversations are committed in groups, so a
   * process killed mid-import leaves whole conversations only: FTS5 writes a segment per commit
   * (and per savepoint), and one commit per conversation made the index merge itself to death
   * (measured: 5.5 MB/s, three quarters of it in commits).
   */
  flush(): void {
    if (this.db.inTransaction) this.db.exec('COMMIT');
    this.pending = 0;
  }

  /** Writes one batch unless the same content was written before; synchronous. */
  upsertOne(batch: HashedBatch, deep: boolean): 'written' | 'unchanged' {
    const hash = batchHash(batch);
    const previous = this.stateOf.get(batch.owner) as
      { content_hash: string; deep: number } | undefined;
    if (previous && previous.content_hash === hash && previous.deep === (deep ? 1 : 0))
      return 'unchanged';
    if (!this.db.inTransaction) {
      this.db.exec('BEGIN');
      this.openedAt = Date.now();
    }
    try {
      this.writeBatch(batch, hash, deep);
    } catch (error) {
      // The group is all-or-nothing; its conversations are in the bundle, and the next import
      // writes them again.
      this.db.exec('ROLLBACK');
      this.pending = 0;
      throw error;
    }
    this.pending++;
    if (this.pending >= GROUP_SIZE || Date.now() - this.openedAt > GROUP_MILLISECONDS) this.flush();
    return 'written';
  }

  async upsert(batches: AsyncIterable<GraphBatch> | Iterable<GraphBatch>): Promise<WriteReport> {
    const writer = this.writer(await this.deep());
    for await (const batch of batches) await writer.write(batch);
    return writer.end();
  }

  writer(deep: boolean): GraphWriter {
    const report: WriteReport = { written: 0, unchanged: 0 };
    return {
      // Synchronous: SQLite commits in groups itself (see flush).
      write: (batch) => {
        report[this.upsertOne(batch, deep)]++;
      },
      flush: () => {
        this.flush();
        return Promise.resolve();
      },
      end: () => {
        this.flush();
        return Promise.resolve({ ...report });
      },
    };
  }

  recordImport(record: ImportRecord): Promise<void> {
    this.flush();
    this.insertNode
      .get('Import')
      ?.run(
        record.id,
        null,
        record.sourceFile,
        record.checksum,
        record.importer,
        record.importedAt,
        record.size ?? null,
        record.crc32 ?? null,
        record.redacted === undefined ? null : record.redacted ? 1 : 0,
      );
    return Promise.resolve();
  }

  conversationCount(): Promise<number> {
    return Promise.resolve(
      Number(this.db.prepare(`SELECT count(*) FROM "Conversation"`).pluck().get()),
    );
  }

  recordFingerprint(checksum: string, size: number, crc32: number): Promise<void> {
    this.db
      .prepare(`UPDATE "Import" SET size = ?, crc32 = ? WHERE checksum = ? AND size IS NULL`)
      .run(size, crc32, checksum);
    return Promise.resolve();
  }

  importedFiles(): Promise<ImportRecord[]> {
    const rows = this.db
      .prepare(
        `SELECT id, source_file AS sourceFile, checksum, importer, imported_at AS importedAt, size, crc32, redacted FROM "Import"`,
      )
      .all() as (Omit<ImportRecord, 'size' | 'crc32' | 'redacted'> & {
      size: number | null;
      crc32: number | null;
      redacted: number | null;
    })[];
    return Promise.resolve(
      rows.map(({ size, crc32, redacted, ...rest }) => ({
        ...rest,
        ...(size !== null ? { size } : {}),
        ...(crc32 !== null ? { crc32 } : {}),
        ...(redacted !== null ? { redacted: redacted === 1 } : {}),
      })),
    );
  }

  importedChecksums(): Promise<Set<string>> {
    return Promise.resolve(
      new Set(this.db.prepare(`SELECT checksum FROM "Import"`).pluck().all() as string[]),
    );
  }

  /** Runs a user's query in a child process (see {@link CypherChildren}), after the fast checks. */
  async cypher(
    query: string,
    params: Record<string, unknown> = {},
    limits: QueryLimits = CLI_QUERY_LIMITS,
  ): Promise<Row[]> {
    assertReadOnly(query);
    footprint(query);
    // The child reads the file: what this connection has queued is committed first.
    if (!this.db.readonly) this.flush();
    return this.queries.run(query, params, limits);
  }

  search(query: SearchQuery): Promise<SearchResult> {
    // Through the executor, a thrown QueryError becomes a rejection.
    return new Promise((resolve) => {
      resolve(searchSqlite(this.db, query));
    });
  }

  conversation(id: string): Promise<ConversationInfo | undefined> {
    const row = this.db
      .prepare(
        `SELECT id, conversation_id AS platformId, title, name, source, created_at AS createdAt, updated_at AS updatedAt, message_count AS messageCount
         FROM "Conversation" WHERE id = @id OR conversation_id = @id ORDER BY id = @id DESC LIMIT 1`,
      )
      .get({ id }) as ConversationInfo | undefined;
    return Promise.resolve(row);
  }

  async thread(
    conversationId: string,
    options: { allBranches?: boolean } = {},
  ): Promise<ThreadMessage[]> {
    const conversation = await this.conversation(conversationId);
    if (!conversation) throw new QueryError(`no conversation with id ${conversationId}`);
    const columns = `id, role, content, created_at AS createdAt, model_slug AS model, parent_id AS parentId,
      is_thought AS isThought, hidden, on_shown_thread AS onShownThread`;
    type Raw = Omit<TreeRow, 'isThought' | 'hidden' | 'onShownThread' | 'attachments'> & {
      isThought: number;
      hidden: number;
      onShownThread: number;
    };
    const attachments = this.db
      .prepare(`SELECT ${ATTACHMENT_COLUMNS.sql} FROM "Attachment" WHERE owner = ? ORDER BY rowid`)
      .all(conversation.id);
    const toRows = (rows: Raw[]): TreeRow[] =>
      withAttachments(
        rows.map((row) => ({
          ...row,
          isThought: row.isThought === 1,
          hidden: row.hidden === 1,
          onShownThread: row.onShownThread === 1,
        })),
        attachments,
      );
    if (!options.allBranches) {
      const rows = this.db
        .prepare(
          `SELECT ${columns} FROM "Message" WHERE owner = ? AND position IS NOT NULL ORDER BY position`,
        )
        .all(conversation.id) as Raw[];
      return toRows(rows).map((row, i) => ({ ...row, depth: i === 0 ? 0 : 1 }));
    }
    const rows = this.db
      .prepare(`SELECT ${columns} FROM "Message" WHERE owner = ? ORDER BY rowid`)
      .all(conversation.id) as Raw[];
    return treeOrder(toRows(rows));
  }

  listConversations(filter: ConversationFilter): Promise<ConversationPage> {
    return new Promise((resolve) => {
      const { where, params } = conversationConditions(filter, SQL);
      const { limit, offset } = pageBounds(filter.limit ?? 20, filter.offset ?? 0);
      const order = conversationOrder(filter.sort);
      const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
      const total = Number(
        this.db.prepare(`SELECT count(*) FROM "Conversation" c ${clause}`).pluck().get(params),
      );
      const items = this.db
        .prepare(
          `SELECT id, conversation_id AS platformId, title, name, source, created_at AS createdAt, updated_at AS updatedAt, message_count AS messageCount
           FROM "Conversation" c ${clause} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
        )
        .all({ ...params, limit, offset }) as ConversationInfo[];
      resolve({ total, items });
    });
  }

  messageContext(messageId: string, before: number, after: number): Promise<ThreadMessage[]> {
    const found = this.db
      .prepare(`SELECT owner, position FROM "Message" WHERE id = ?`)
      .get(messageId) as { owner: string; position: number | null } | undefined;
    return messageContextAt(this, found, messageId, before, after);
  }

  async subgraph(conversationId: string): Promise<GraphBatch | undefined> {
    const conversation = await this.conversation(conversationId);
    if (!conversation) return undefined;
    const owner = conversation.id;
    const nodes: GraphNode[] = [];
    const edges: GraphEdge[] = [];
    for (const kind of EDGE_KINDS) {
      const owned = ownedBySource(kind);
      const rows = this.db
        .prepare(
          owned === 'equal'
            ? `SELECT src, dst FROM ${quote(kind)} WHERE src = @owner`
            : owned === 'prefix'
              ? `SELECT src, dst FROM ${quote(kind)} WHERE src >= @owner || ':' AND src < @owner || ';'`
              : `SELECT src, dst FROM ${quote(kind)} WHERE owner = @owner`,
        )
        .all({ owner }) as { src: string; dst: string }[];
      for (const row of rows) edges.push({ kind, from: row.src, to: row.dst });
    }
    const shared = new Set<string>();
    for (const edge of edges) shared.add(edge.from).add(edge.to);
    for (const label of LABEL_NAMES) {
      const columns = ['id', ...columnsOf(label)];
      const rows = (
        SHARED_LABELS.has(label)
          ? this.db
              .prepare(
                `SELECT ${columns.map(quote).join(', ')} FROM ${quote(label)} WHERE id IN (SELECT value FROM json_each(?))`,
              )
              .all(JSON.stringify([...shared]))
          : this.db
              .prepare(
                `SELECT ${columns.map(quote).join(', ')} FROM ${quote(label)} WHERE owner = ?`,
              )
              .all(owner)
      ) as Record<string, unknown>[];
      for (const row of withBooleans(label, rows)) {
        const { id, ...properties } = row;
        nodes.push({ label, id: String(id), properties: properties as GraphNode['properties'] });
      }
    }
    return { owner, nodes, edges };
  }

  sources(): Promise<string[]> {
    return Promise.resolve(
      this.db
        .prepare(
          `SELECT DISTINCT source FROM "Conversation" WHERE source IS NOT NULL ORDER BY source`,
        )
        .pluck()
        .all() as string[],
    );
  }

  stats(): Promise<Stats> {
    const one = (sql: string): number => Number(this.db.prepare(sql).pluck().get() ?? 0);
    return Promise.resolve({
      conversations: one(`SELECT count(*) FROM "Conversation"`),
      messages: one(`SELECT count(*) FROM "Message"`),
      bySource: this.db
        .prepare(
          `SELECT source, count(*) AS conversations, coalesce(sum(message_count), 0) AS messages FROM "Conversation" GROUP BY source ORDER BY source`,
        )
        .all() as Stats['bySource'],
      byMonth: this.db
        .prepare(
          `SELECT nullif(mc.month, '') AS month, c.source AS source, sum(mc.messages) AS messages
           FROM message_counts mc JOIN "Conversation" c ON c.id = mc.owner
           GROUP BY mc.month, c.source ORDER BY mc.month, c.source`,
        )
        .all() as Stats['byMonth'],
      byRole: this.db
        .prepare(
          `SELECT role, sum(messages) AS messages FROM message_counts GROUP BY role ORDER BY messages DESC, role`,
        )
        .all() as Stats['byRole'],
      byModel: this.db
        .prepare(
          `SELECT model, sum(messages) AS messages FROM message_counts WHERE model <> ''
           GROUP BY model ORDER BY messages DESC, model LIMIT 10`,
        )
        .all() as Stats['byModel'],
    });
  }

  counts(): Promise<{ nodes: Record<string, number>; edges: Record<string, number> }> {
    const nodes: Record<string, number> = {};
    const edges: Record<string, number> = {};
    for (const label of LABEL_NAMES)
      nodes[label] = Number(
        this.db
          .prepare(`SELECT count(*) FROM ${quote(label)}`)
          .pluck()
          .get(),
      );
    for (const kind of EDGE_KINDS)
      edges[kind] = Number(
        this.db
          .prepare(`SELECT count(*) FROM ${quote(kind)}`)
          .pluck()
          .get(),
      );
    return Promise.resolve({ nodes, edges });
  }

  deep(): Promise<boolean> {
    return Promise.resolve(
      this.db.prepare(`SELECT value FROM meta WHERE key = 'deep'`).pluck().get() === '1',
    );
  }

  setDeep(deep: boolean): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO meta (key, value) VALUES ('deep', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      )
      .run(deep ? '1' : '0');
    return Promise.resolve();
  }

  async deleteConversation(id: string): Promise<boolean> {
    const found = await this.conversation(id);
    if (!found) return false;
    this.flush();
    this.db.transaction(() => {
      this.removeConversation(found.id);
    })();
    return true;
  }

  clear(): Promise<void> {
    this.flush();
    this.db.transaction(() => {
      for (const label of LABEL_NAMES) this.db.exec(`DELETE FROM ${quote(label)}`);
      for (const kind of EDGE_KINDS) this.db.exec(`DELETE FROM ${quote(kind)}`);
      this.db.exec(`DELETE FROM conversation_state`);
      this.db.exec(`DELETE FROM message_counts`);
      this.vectors.dropAll();
      clearFullText(this.db);
      SqliteMemories.clear(this.db);
      this.db
        .prepare(
          `INSERT INTO meta (key, value) VALUES ('version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
        )
        .run(`cleared-${Date.now()}`);
    })();
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.db.open && !this.db.readonly) this.flush();
    this.queries.close();
    this.db.close();
    return Promise.resolve();
  }
}

// SQLite stores booleans as 0/1; the graph (and Cypher) sees true/false.
function* withBooleans(
  label: Label,
  rows: Iterable<Record<string, unknown>>,
): Generator<Record<string, unknown>> {
  const booleans = Object.entries(typesOf(label))
    .filter(([, type]) => type === 'boolean')
    .map(([column]) => column);
  for (const row of rows) {
    for (const column of booleans)
      if (row[column] !== null && row[column] !== undefined) row[column] = row[column] === 1;
    yield row;
  }
}

function rowOf(node: GraphNode, owner: string | null): unknown[] {
  const types = typesOf(node.label);
  return [
    node.id,
    owner,
    ...columnsOf(node.label).map((column) => {
      const value = node.properties[column];
      if (value === undefined || value === null) return null;
      return types[column] === 'boolean' ? (value ? 1 : 0) : value;
    }),
  ];
}

// A conversation's messages counted per month, role and model (keys joined by NUL).
function messageCounts(batch: GraphBatch): Map<string, number> {
  const counts = new Map<string, number>();
  for (const node of batch.nodes) {
    if (node.label !== 'Message') continue;
    const p = node.properties;
    const month = typeof p.created_at === 'string' ? p.created_at.slice(0, 7) : '';
    const key = [
      month,
      typeof p.role === 'string' ? p.role : '',
      typeof p.model_slug === 'string' ? p.model_slug : '',
    ].join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

// Whether a store file lacks a table or a property column of this version.
function outdated(file: string): boolean {
  const db = openReadonly(file);
  try {
    const tables = new Set(
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[],
    );
    if (!tables.has('message_counts') || fullTextMissing(db).length > 0) return true;
    return LABEL_NAMES.some((label) => {
      const have = new Set(
        (db.prepare(`PRAGMA table_info(${quote(label)})`).all() as { name: string }[]).map(
          (c) => c.name,
        ),
      );
      return columnsOf(label).some((column) => !have.has(column));
    });
  } finally {
    db.close();
  }
}
