import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import type { GraphBatch } from '../../graph/graph-batch.js';
import { deltaOf, type GraphDelta } from '../../graph/graph-delta.js';
import { batchHash } from '../batch-hash.js';
import { messageContextAt } from '../thread-tree.js';
import { assertReadOnly, footprint } from '../cypher/cypher-text.js';
import { CLI_QUERY_LIMITS } from '../query-limits.js';
import { CypherChildren } from './cypher-children.js';
import {
  QueryError,
  type ConversationFilter,
  type ConversationInfo,
  type ConversationPage,
  type GraphWriter,
  type HashedBatch,
  type ImportRecord,
  type MessageRef,
  type QueryLimits,
  type Row,
  type SearchQuery,
  type SearchResult,
  type Stats,
  type Store,
  type ThreadMessage,
  type WriteReport,
} from '../store.js';
import { sourcesOf } from './sqlite-list-migration.js';
import { SqliteMemories } from './sqlite-memories.js';
import { SqliteUsage } from './sqlite-usage.js';
import { EMPTY_FILE, StoreDamagedError, isEmptyFile } from './store-damage.js';
import { SqliteVectors } from './sqlite-vectors.js';
import { SearchChildren } from './search-children.js';
import { toFtsQuery } from './fts-query.js';
import { clearStore } from './sqlite-clear.js';
import { batchNeedsDetector } from '../batch-language.js';
import { afterLanguageDetector, preloadLanguageDetector } from '../../search/language-detection.js';
import { openReadonly, type SqliteStoreOptions } from './open-readonly.js';
import { openDatabase } from '../../at-rest/open-database.js';
import { SqliteGraphWriter } from './sqlite-graph-writer.js';
import { configureWritable, migrate, needsUpgrade, openIfCurrent } from './sqlite-migrations.js';
import {
  conversationOf,
  conversationPage,
  conversationsByPrefixOf,
  messagesByPrefixOf,
  messagePlaceOf,
  countsOf,
  importedFilesOf,
  importChecksumsOf,
  statsOf,
  subgraphOf,
  threadOf,
} from './sqlite-reads.js';
import { StateRow, sqliteRow } from './sqlite-rows.js';
import { DeferredIndex } from './deferred-index.js';

type Statement = Database.Statement;

/** Conversations per commit, and the longest a group stays open (10 s: see setPendingSize). */
const GROUP_SIZE = 2000;
const GROUP_MILLISECONDS = 10_000;

/**
 * The embedded store: the graph as SQLite tables (WAL, so readers go on while an import
 * writes), FTS5 for ranked search, and Cypher through an in-memory Grafeo projection.
 */
export class SqliteStore implements Store {
  private readonly db: Database.Database;
  private readonly queries: CypherChildren;
  private readonly searches: SearchChildren;
  /** Absent when the store is open read-only. */
  private readonly graphWriter: SqliteGraphWriter | undefined;
  /** The store's vectors (semantic search), dropped with their conversation. */
  readonly vectors: SqliteVectors;
  /** The bundle's memories as Memory nodes, searchable by words. */
  readonly memories: SqliteMemories;
  readonly usage = new SqliteUsage(() => this.db);

  private constructor(
    readonly file: string,
    readonly: boolean,
    { key, vectorIndexFile, searchHere }: SqliteStoreOptions,
    // Off when an old store is brought up to date only to be read (a rebuild waits for a write).
    retokenize = true,
    opened?: Database.Database,
  ) {
    if (!readonly) mkdirSync(dirname(file), { recursive: true });
    this.db = opened ?? (readonly ? openReadonly(file, key) : openDatabase(file, key));
    this.db.pragma('busy_timeout = 10000');
    this.vectors = new SqliteVectors(this.db, vectorIndexFile);
    this.memories = new SqliteMemories(this.db);
    if (!readonly) {
      configureWritable(this.db);
      migrate(this.db, retokenize, key !== undefined);
      this.graphWriter = new SqliteGraphWriter(this.db, this.vectors);
    }
    this.stateOf = this.db.prepare(
      `SELECT content_hash, deep FROM conversation_state WHERE id = ?`,
    );
    this.queries = new CypherChildren(file, key);
    this.searches = new SearchChildren(file, key, () => this.db, searchHere);
  }

  private writable(): SqliteGraphWriter {
    if (!this.graphWriter) throw new Error('the store is open read-only');
    return this.graphWriter;
  }

  /** Whether opening the file (with its key, if encrypted) will bring it up to date (an older version made it). */
  static readonly needsUpgrade = needsUpgrade;
  /** Opens (creating) the store file. */
  static open(file: string, options: SqliteStoreOptions = {}): SqliteStore {
    // SQLite takes an empty file for an empty database; a store emptied so (a full disk, a
    // truncating copy) would be filled afresh while the bundle still lists what it held.
    if (isEmptyFile(file)) throw new StoreDamagedError(file, EMPTY_FILE);
    const existing = options.readonly === true && existsSync(file);
    const current = existing ? SqliteStore.openCurrent(file, options) : undefined;
    if (current) return current;
    // A store made by an older version is brought up to date before it is read.
    if (existing) new SqliteStore(file, false, options, false).db.close();
    return new SqliteStore(file, options.readonly ?? false, options);
  }

  /** Read-only, when it has this version's schema (checked on the connection it reads through). */
  static openCurrent(file: string, options: SqliteStoreOptions = {}): SqliteStore | undefined {
    const db = openIfCurrent(file, options.key);
    return db && new SqliteStore(file, true, options, true, db);
  }

  private pending = 0;
  private readonly stateOf: Statement;
  private readonly deferred = new DeferredIndex();
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
      this.deferred.begin(this.db);
      this.writable().write(batch, hash, deep);
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

  /**
   * Writes a conversation that grew (a followed session log): only what `next` adds to or
   * changes in `previous`, committed at once. When the store does not hold `previous` (another
   * writer changed it) or the change is not additive, the conversation is rewritten whole.
   */
  async patch(
    previous: HashedBatch,
    next: HashedBatch,
    deep: boolean,
  ): Promise<'written' | 'unchanged'> {
    const hash = batchHash(next);
    if (this.holds(next.owner, hash, deep)) return 'unchanged';
    if (batchNeedsDetector(next.nodes)) await preloadLanguageDetector();
    const writer = this.writable();
    this.flush();
    const patchable = this.holds(next.owner, batchHash(previous), deep);
    this.db.transaction(() => {
      if (!patchable || writer.patch(deltaOf(previous, next), hash, deep) === 'replace')
        writer.write(next, hash, deep);
    })();
    return 'written';
  }

  /**
   * Writes a grown conversation's delta (see `GraphDelta`) over the version `base`, committed
   * at once; `stale` when the store does not hold `base` (another writer changed it) or the
   * delta takes a node away: the caller writes the conversation whole.
   */
  async applyDelta(
    delta: GraphDelta,
    base: string,
    hash: string,
    deep: boolean,
  ): Promise<'written' | 'stale'> {
    if (!this.holds(delta.owner, base, deep)) return 'stale';
    if (batchNeedsDetector([...delta.left.nodes, ...delta.fresh.nodes]))
      await preloadLanguageDetector();
    const writer = this.writable();
    this.flush();
    const outcome = this.db.transaction(() => writer.patch(delta, hash, deep))();
    return outcome === 'patched' ? 'written' : 'stale';
  }

  // Whether the store holds this version of the conversation.
  private holds(owner: string, hash: string, deep: boolean): boolean {
    const stored = sqliteRow(StateRow, this.stateOf.get(owner), 'conversation state');
    return stored?.content_hash === hash && stored.deep === (deep ? 1 : 0);
  }

  async upsert(batches: AsyncIterable<GraphBatch> | Iterable<GraphBatch>): Promise<WriteReport> {
    const writer = this.writer(await this.deep());
    for await (const batch of batches) await writer.write(batch);
    return writer.end();
  }

  writer(deep: boolean): GraphWriter {
    const report: WriteReport = { written: 0, unchanged: 0 };
    return {
      // Synchronous once eld is loaded (stems are written in the transaction); grouped commits.
      write: (batch) =>
        afterLanguageDetector(batchNeedsDetector(batch.nodes), () => {
          report[this.upsertOne(batch, deep)]++;
        }),
      flush: () => {
        this.flush();
        return Promise.resolve();
      },
      end: () => {
        this.flush();
        this.deferred.restore(this.db);
        return Promise.resolve({ ...report });
      },
    };
  }

  recordImport(record: ImportRecord): Promise<void> {
    this.flush();
    this.writable().recordImport(record);
    return Promise.resolve();
  }

  dropStaleImports(sourceFile: string, keep: string): Promise<void> {
    this.flush();
    this.writable();
    this.db
      .prepare(
        `DELETE FROM "Import" WHERE source_file = ? AND id <> ?
           AND NOT EXISTS (SELECT 1 FROM "IMPORTED" e WHERE e.src = "Import".id)`,
      )
      .run(sourceFile, keep);
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
    return Promise.resolve(importedFilesOf(this.db));
  }

  importedChecksums(): Promise<Set<string>> {
    return Promise.resolve(new Set(importChecksumsOf(this.db)));
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

  async search(query: SearchQuery): Promise<SearchResult> {
    // What a person typed is checked here, at once (a QueryError); the search runs in a child.
    if (toFtsQuery(query.text) === undefined)
      throw new QueryError('give at least one word to search for');
    // The child reads the file: what this connection has queued is committed first.
    if (!this.db.readonly) this.flush();
    return this.searches.run(query, query.timeoutSeconds);
  }

  conversation(id: string): Promise<ConversationInfo | undefined> {
    return Promise.resolve(conversationOf(this.db, id));
  }

  conversationsByPrefix(prefix: string, limit: number): Promise<ConversationInfo[]> {
    return Promise.resolve(conversationsByPrefixOf(this.db, prefix, limit));
  }

  messagesByPrefix(prefix: string, limit: number): Promise<MessageRef[]> {
    return Promise.resolve(messagesByPrefixOf(this.db, prefix, limit));
  }

  async thread(
    conversationId: string,
    options: { allBranches?: boolean } = {},
  ): Promise<ThreadMessage[]> {
    const conversation = await this.conversation(conversationId);
    if (!conversation) throw new QueryError(`no conversation with id ${conversationId}`);
    return threadOf(this.db, conversation.id, options.allBranches === true);
  }

  listConversations(filter: ConversationFilter): Promise<ConversationPage> {
    // Through the executor, a thrown QueryError becomes a rejection.
    return new Promise((resolve) => {
      resolve(conversationPage(this.db, filter));
    });
  }

  messageContext(messageId: string, before: number, after: number): Promise<ThreadMessage[]> {
    return messageContextAt(this, messagePlaceOf(this.db, messageId), messageId, before, after);
  }

  async subgraph(conversationId: string): Promise<GraphBatch | undefined> {
    const conversation = await this.conversation(conversationId);
    return conversation ? subgraphOf(this.db, conversation.id) : undefined;
  }

  sources(): Promise<string[]> {
    return Promise.resolve(sourcesOf(this.db));
  }

  stats(): Promise<Stats> {
    return Promise.resolve(statsOf(this.db));
  }

  counts(): Promise<{ nodes: Record<string, number>; edges: Record<string, number> }> {
    return Promise.resolve(countsOf(this.db));
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
    const writer = this.writable();
    this.db.transaction(() => {
      writer.remove(found.id);
    })();
    return true;
  }

  clear(): Promise<void> {
    this.flush();
    clearStore(this.db, this.vectors);
    return Promise.resolve();
  }

  close(): Promise<void> {
    if (this.db.open && !this.db.readonly) this.flush();
    if (this.db.open && !this.db.readonly) this.deferred.restore(this.db);
    this.queries.close();
    this.searches.close();
    this.db.close();
    return Promise.resolve();
  }
}
