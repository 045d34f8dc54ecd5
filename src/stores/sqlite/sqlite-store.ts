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
import {
  conversationConditions,
  conversationOrder,
  searchConditions,
  type Dialect,
} from '../query-conditions.js';
import { pageBounds } from '../page-bounds.js';
import { messageContextAt, treeOrder, type TreeRow } from '../thread-tree.js';
import { CypherProjection } from '../cypher/grafeo-projection.js';
import {
  MATCH_END,
  MATCH_START,
  QueryError,
  type ConversationFilter,
  type ConversationInfo,
  type ConversationPage,
  type GraphWriter,
  type HashedBatch,
  type ImportRecord,
  type Row,
  type SearchHit,
  type SearchQuery,
  type SearchResult,
  type Stats,
  type Store,
  type ThreadMessage,
  type WriteReport,
} from '../store.js';
import { toFtsQuery } from './fts-query.js';
import { makeSnippet, snippetTerms } from '../../search/snippet.js';
import { columnsOf, ownedBySource, quote, schemaStatements, typesOf } from './sqlite-schema.js';
import { openReadonly } from './open-readonly.js';

type Statement = Database.Statement;

/** Conversations per commit, and the longest a group stays open (readers see it then). */
const GROUP_SIZE = 2000;
const GROUP_MILLISECONDS = 3000;

/** Filters in SQLite: `@name` parameters, 1 for true, LIKE for a title (ASCII case-insensitive). */
const SQL: Dialect = {
  param: (name) => `@${name}`,
  true: '1',
  titleContains: {
    condition: `c.name LIKE @title ESCAPE '\\'`,
    value: (title) => `%${title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
  },
};

/** How many of a word's matches are ranked at first (see `search`). */
export const RANK_WINDOW = 2_000;

/** Matches are counted up to this many. */
export const MATCH_COUNT_CAP = 50_000;

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
  private readonly projection: CypherProjection;
  private readonly writeBatch: (batch: HashedBatch, hash: string, deep: boolean) => void;
  private readonly removeConversation: (owner: string) => void;

  private constructor(
    readonly file: string,
    readonly: boolean,
  ) {
    if (!readonly) mkdirSync(dirname(file), { recursive: true });
    this.db = readonly ? openReadonly(file) : new Database(file);
    this.db.pragma('busy_timeout = 10000');
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
      for (const statement of schemaStatements()) this.db.exec(statement);
      // The same for the search index: FTS5 otherwise keeps a deleted row's words until a merge.
      this.db.exec(`INSERT INTO message_fts (message_fts, rank) VALUES ('secure-delete', 1)`);
      this.addMissingColumns();
      this.backfillMessageCounts();
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
      const ftsDelete = this.db.prepare(
        `INSERT INTO message_fts (message_fts, rowid, content) SELECT 'delete', rowid, content FROM "Message" WHERE owner = ?`,
      );
      const ftsInsert = this.db.prepare(`INSERT INTO message_fts (rowid, content) VALUES (?, ?)`);
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
        ftsDelete.run(owner);
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
          if (node.label === 'Message' && info)
            ftsInsert.run(info.lastInsertRowid, node.properties.content ?? '');
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
    const versionOf = this.db.prepare(`SELECT value FROM meta WHERE key = 'version'`).pluck();
    this.projection = new CypherProjection({
      nodes: (label) =>
        withBooleans(
          label,
          this.db
            .prepare(
              `SELECT ${['id', ...columnsOf(label)].map(quote).join(', ')} FROM ${quote(label)}`,
            )
            .iterate() as Iterable<Record<string, unknown>>,
        ),
      edges: (kind) =>
        this.db.prepare(`SELECT src, dst FROM ${quote(kind)}`).iterate() as Iterable<{
          src: string;
          dst: string;
        }>,
      version: () => {
        const value: unknown = versionOf.get();
        return typeof value === 'string' ? value : '';
      },
    });
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
      new SqliteStore(file, false).db.close();
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

  async cypher(query: string, params: Record<string, unknown> = {}): Promise<Row[]> {
    return this.projection.run(query, params);
  }

  search(query: SearchQuery): Promise<SearchResult> {
    // Through the executor, a thrown QueryError becomes a rejection.
    return new Promise((resolve) => {
      resolve(this.searchNow(query));
    });
  }

  /**
   * BM25 over message text. Scoring costs about a microsecond a match, so a word found in
   * hundreds of thousands of messages (measured: "the", 479,189 matches, 718 ms) is ranked
   * among its {@link RANK_WINDOW} most recently indexed matches, widened while filters leave
   * too few hits; the result says how many were ranked.
   */
  private searchNow(query: SearchQuery): SearchResult {
    const fts = toFtsQuery(query.text);
    if (fts === undefined) throw new QueryError('give at least one word to search for');
    const match = fts.match;
    const { limit } = pageBounds(query.limit ?? 20, 0, '--limit');
    const conditions = searchConditions(query, SQL);
    const filters = conditions.where;
    const params: Record<string, unknown> = { match, limit, ...conditions.params };
    let matches: number;
    try {
      // Counting every match of a very common word costs more than ranking: counted up to a cap.
      matches = Number(
        this.db
          .prepare(
            `SELECT count(*) FROM (SELECT rowid FROM message_fts WHERE message_fts MATCH ? LIMIT ${MATCH_COUNT_CAP + 1})`,
          )
          .pluck()
          .get(match),
      );
    } catch (error) {
      throw new QueryError(
        `the search could not be run: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    // bm25() rather than FTS5's rank column: ORDER BY rank scores every match and ignores
    // the rowid window (measured: 526 ms against 36 ms for "the").
    const ranked = this.db.prepare(
      `SELECT t.rowid AS rowid, t.score AS rank
       FROM (SELECT rowid, ${fts.unranked ? '-rowid' : 'bm25(message_fts)'} AS score FROM message_fts
             WHERE message_fts MATCH @match ORDER BY rowid DESC LIMIT @window) t
       JOIN "Message" m ON m.rowid = t.rowid
       JOIN "Conversation" c ON c.id = m.owner
       ${filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : ''}
       ORDER BY t.score LIMIT @limit`,
    );
    let window = Math.min(matches, RANK_WINDOW);
    let top: { rowid: number; rank: number }[];
    for (;;) {
      // The window is read newest-indexed first, which FTS5 does cheaply (a `rowid >= ?` range
      // was read from the start of the doclist: 23 ms for "the").
      top = ranked.all({ ...params, window: Math.max(window, 1) }) as {
        rowid: number;
        rank: number;
      }[];
      if (top.length >= limit || window >= matches) break;
      window = Math.min(matches, window * 8);
    }
    if (top.length === 0) {
      return {
        hits: [],
        matches: Math.min(matches, MATCH_COUNT_CAP),
        matchesCapped: matches > MATCH_COUNT_CAP,
        ranked: fts.unranked ? 0 : window,
      };
    }
    // Snippets are cut here, not by FTS5: its snippet() needs the MATCH, and FTS5 ignored a
    // `rowid = ?` beside a MATCH (it returned every match), so each would rescan the doclist.
    const detail = this.db.prepare(
      `SELECT m.rowid AS rowid, m.id AS messageId, m.role, m.created_at AS createdAt, m.content,
              c.id AS conversationId, c.conversation_id AS platformConversationId, c.name AS title, c.source
       FROM "Message" m JOIN "Conversation" c ON c.id = m.owner WHERE m.rowid = ?`,
    );
    const terms = snippetTerms(query.text);
    const details = top.flatMap((t) => {
      const row = detail.get(t.rowid) as
        | (Omit<SearchHit, 'score' | 'snippet'> & { rowid: number; content: string | null })
        | undefined;
      if (!row) return [];
      const { content, ...rest } = row;
      return [{ ...rest, snippet: makeSnippet(content ?? '', terms, MATCH_START, MATCH_END) }];
    });
    const byRowid = new Map(details.map((d) => [d.rowid, d]));
    const hits = top.flatMap(({ rowid, rank }) => {
      const detail = byRowid.get(rowid);
      if (!detail) return [];
      const { rowid: _rowid, ...hit } = detail;
      return [{ ...hit, score: -rank }];
    });
    return {
      hits,
      matches: Math.min(matches, MATCH_COUNT_CAP),
      matchesCapped: matches > MATCH_COUNT_CAP,
      ranked: fts.unranked ? 0 : window,
    };
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
    type Raw = Omit<TreeRow, 'isThought' | 'hidden' | 'onShownThread'> & {
      isThought: number;
      hidden: number;
      onShownThread: number;
    };
    const toRow = (row: Raw): TreeRow => ({
      ...row,
      isThought: row.isThought === 1,
      hidden: row.hidden === 1,
      onShownThread: row.onShownThread === 1,
    });
    if (!options.allBranches) {
      const rows = this.db
        .prepare(
          `SELECT ${columns} FROM "Message" WHERE owner = ? AND position IS NOT NULL ORDER BY position`,
        )
        .all(conversation.id) as Raw[];
      return rows.map((row, i) => ({ ...toRow(row), depth: i === 0 ? 0 : 1 }));
    }
    const rows = this.db
      .prepare(`SELECT ${columns} FROM "Message" WHERE owner = ? ORDER BY rowid`)
      .all(conversation.id) as Raw[];
    return treeOrder(rows.map(toRow));
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
      this.db.exec(`INSERT INTO message_fts (message_fts) VALUES ('delete-all')`);
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
    this.projection.close();
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
    if (!tables.has('message_counts')) return true;
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
