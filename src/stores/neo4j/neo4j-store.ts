import type { Driver, ManagedTransaction, Session } from 'neo4j-driver';
import type { GraphBatch } from '../../graph/graph-batch.js';
import type { GraphDelta } from '../../graph/graph-delta.js';
import { LABEL_NAMES } from '../../graph/schema.js';
import { assertReadOnly, footprint } from '../cypher/cypher-text.js';
import {
  QueryError,
  type ConversationFilter,
  type ConversationInfo,
  type MessageRef,
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
import { messageContextAt } from '../thread-tree.js';
import { connectNeo4j } from './neo4j-connect.js';
import { META_LABEL, OWNED_LABELS } from './neo4j-schema.js';
import { MEMORY_VECTOR_LABEL, Neo4jMemories } from './neo4j-memories.js';
import { Neo4jVectors } from './neo4j-vectors.js';
import { VECTOR_LABEL } from './neo4j-vector-index.js';
import { STEMS_INDEX, TEXT_INDEX } from './neo4j-full-text.js';
import { z } from 'zod';
import { searchNeo4j, type Read } from './neo4j-search.js';
import { shownUrl, type Neo4jTarget } from './neo4j-target.js';
import { toParameter } from './neo4j-values.js';
import { runUserQuery } from './neo4j-user-query.js';
import { CLI_QUERY_LIMITS, SEARCH_TIMEOUT_SECONDS, searchTimedOut } from '../query-limits.js';
import { neo4jGraphWriter } from './neo4j-graph-writer.js';
import { applyNeo4jDelta, patchNeo4j } from './neo4j-patch.js';
import {
  readConversation,
  readConversationsByPrefix,
  readMessagesByPrefix,
  readConversationPage,
  readCounts,
  readStats,
  readSubgraph,
  readThread,
} from './neo4j-reads.js';
import { Neo4jSessions } from './neo4j-sessions.js';
import { Neo4jUsage } from './neo4j-usage.js';

/**
 * The graph in a Neo4j 5 server (or Aura) over Bolt: the same Store as the embedded one.
 * Conversations are written in groups, each one explicit transaction the driver retries on
 * transient errors, nodes then edges by `UNWIND … MERGE`; a group that never committed is
 * written again by the next push, and MERGE keeps that free of duplicates. The class delegates:
 * sessions and schema to {@link Neo4jSessions}, the batch writer to `neo4j-graph-writer.ts`,
 * reads to `neo4j-reads.ts`.
 */
export class Neo4jStore implements Store {
  private readonly db: Neo4jSessions;
  /** The store's vectors, in Neo4j's native vector index. */
  readonly vectors = new Neo4jVectors({
    read: (query, params) => this.read(query, params),
    write: (work) => this.write(work),
  });

  /** The bundle's memories as Memory nodes, with a full-text index of their own. */
  readonly memories = new Neo4jMemories({
    read: (query, params) => this.read(query, params),
    write: (work) => this.write(work),
  });

  /** The messages' token counts, summed by the server for usage reports. */
  readonly usage = new Neo4jUsage((query, params) => this.read(query, params));

  private constructor(
    driver: Driver,
    private readonly target: Neo4jTarget,
  ) {
    this.db = new Neo4jSessions(driver, target);
  }

  /** Connects and checks the server (see {@link connectNeo4j}); nothing is written yet. */
  static async open(target: Neo4jTarget): Promise<Neo4jStore> {
    return new Neo4jStore(await connectNeo4j(target), target);
  }

  /** Where the store is, for messages (a password in the address masked). */
  get url(): string {
    return shownUrl(this.target.url);
  }

  private session(mode: 'READ' | 'WRITE'): Session {
    return this.db.session(mode);
  }

  private read(query: string, params: Record<string, unknown> = {}): Promise<Row[]> {
    return this.db.read(query, params);
  }

  private write<T>(work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    return this.db.write(work);
  }

  private failure(error: unknown): Error {
    return this.db.failure(error);
  }

  async upsert(batches: AsyncIterable<GraphBatch> | Iterable<GraphBatch>): Promise<WriteReport> {
    const writer = this.writer(await this.deep());
    for await (const batch of batches) await writer.write(batch);
    return writer.end();
  }

  /** Writes only what a grown conversation adds (see {@link patchNeo4j}). */
  patch(previous: HashedBatch, next: HashedBatch, deep: boolean): Promise<'written' | 'unchanged'> {
    return patchNeo4j((work) => this.write(work), previous, next, deep);
  }

  /**
   * Writes a grown conversation's delta over the version `base` (see {@link applyNeo4jDelta});
   * `stale`, nothing written, when the store does not hold `base` or a node would go.
   */
  applyDelta(
    delta: GraphDelta,
    base: string,
    hash: string,
    deep: boolean,
  ): Promise<'written' | 'stale'> {
    return applyNeo4jDelta((work) => this.write(work), delta, base, hash, deep);
  }

  writer(deep: boolean): GraphWriter {
    return neo4jGraphWriter((work) => this.write(work), deep);
  }

  async recordImport(record: ImportRecord): Promise<void> {
    await this.write((tx) =>
      tx.run(
        `MERGE (i:Import {id: $id}) SET i.source_file = $sourceFile, i.checksum = $checksum,
           i.importer = $importer, i.imported_at = $importedAt, i.size = $size, i.crc32 = $crc32, i.redacted = $redacted`,
        toParameter({
          ...record,
          size: record.size ?? null,
          crc32: record.crc32 ?? null,
          redacted: record.redacted ?? null,
        }) as Record<string, unknown>,
      ),
    );
  }

  async dropStaleImports(sourceFile: string, keep: string): Promise<void> {
    await this.write((tx) =>
      tx.run(
        `MATCH (i:Import {source_file: $sourceFile}) WHERE i.id <> $keep AND NOT (i)-[:IMPORTED]->()
         DELETE i`,
        { sourceFile, keep },
      ),
    );
  }

  async recordFingerprint(checksum: string, size: number, crc32: number): Promise<void> {
    await this.write((tx) =>
      tx.run(
        `MATCH (i:Import {checksum: $checksum}) WHERE i.size IS NULL SET i.size = $size, i.crc32 = $crc32`,
        toParameter({ checksum, size, crc32 }) as Record<string, unknown>,
      ),
    );
  }

  async conversationCount(): Promise<number> {
    const [row] = await this.read(`MATCH (c:Conversation) RETURN count(c) AS n`);
    return Number(row?.n ?? 0);
  }

  async importedFiles(): Promise<ImportRecord[]> {
    const rows = await this.read(
      `MATCH (i:Import) WHERE i.checksum IS NOT NULL
       RETURN i.id AS id, i.source_file AS sourceFile, i.checksum AS checksum, i.importer AS importer,
              i.imported_at AS importedAt, i.size AS size, i.crc32 AS crc32, i.redacted AS redacted`,
    );
    return rows.map(({ size, crc32, redacted, ...rest }) => ({
      ...(rest as Omit<ImportRecord, 'size' | 'crc32' | 'redacted'>),
      ...(typeof size === 'number' ? { size } : {}),
      ...(typeof crc32 === 'number' ? { crc32 } : {}),
      ...(typeof redacted === 'boolean' ? { redacted } : {}),
    }));
  }

  async importedChecksums(): Promise<Set<string>> {
    return new Set((await this.importedFiles()).map((f) => f.checksum));
  }

  /**
   * Runs a user's query in a read transaction (Neo4j refuses writes there too), after the same
   * checks as the embedded store: writes refused, unknown labels and types named.
   */
  async cypher(
    query: string,
    params: Record<string, unknown> = {},
    limits: QueryLimits = CLI_QUERY_LIMITS,
  ): Promise<Row[]> {
    assertReadOnly(query);
    footprint(query);
    const session = this.session('READ');
    try {
      return await runUserQuery(session, query, params, limits);
    } catch (error) {
      if (error instanceof QueryError) throw error;
      throw this.failure(error);
    } finally {
      await session.close();
    }
  }

  /** Keyword search (see {@link searchNeo4j}). */
  async search(query: SearchQuery): Promise<SearchResult> {
    // One deadline over the search's reads: each gets what is left of it, enforced by the server.
    const seconds = query.timeoutSeconds ?? SEARCH_TIMEOUT_SECONDS;
    const ends = performance.now() + seconds * 1000;
    const timedOut = (): Error => searchTimedOut(seconds);
    const read = (q: string, params: Record<string, unknown> = {}): Promise<Row[]> => {
      const left = ends - performance.now();
      if (left <= 0) return Promise.reject(timedOut());
      return this.db.read(q, params, { timeout: Math.ceil(left), timedOut });
    };
    const { stems } = await this.assertSearchable(read);
    return searchNeo4j(read, query, stems);
  }

  // Before anything is imported there is no index to search: say so, not "no such index". The
  // stemmed index is searched when the store has it and has written stems (see MARK_STEMMED).
  private async assertSearchable(
    read: Read = (q, p) => this.read(q, p),
  ): Promise<{ stems: boolean }> {
    const rows = await read(
      `SHOW FULLTEXT INDEXES YIELD name WHERE name IN $names RETURN collect(name) AS names`,
      { names: [TEXT_INDEX, STEMS_INDEX] },
    );
    const names = z.array(z.string()).parse(rows[0]?.names ?? []);
    if (!names.includes(TEXT_INDEX)) {
      throw new QueryError(
        `nothing is imported in Neo4j at ${shownUrl(this.target.url)} yet: run "chatgraph import" or "chatgraph push" with --neo4j first`,
      );
    }
    if (!names.includes(STEMS_INDEX)) return { stems: false };
    const [store] = await read(
      `MATCH (s:${META_LABEL} {key: 'store'}) RETURN s.stemmed AS stemmed`,
    );
    return { stems: store?.stemmed === true };
  }

  async conversation(id: string): Promise<ConversationInfo | undefined> {
    return readConversation((q, p) => this.read(q, p), id);
  }

  async conversationsByPrefix(prefix: string, limit: number): Promise<ConversationInfo[]> {
    return readConversationsByPrefix((q, p) => this.read(q, p), prefix, limit);
  }

  async messagesByPrefix(prefix: string, limit: number): Promise<MessageRef[]> {
    return readMessagesByPrefix((q, p) => this.read(q, p), prefix, limit);
  }

  async thread(
    conversationId: string,
    options: { allBranches?: boolean } = {},
  ): Promise<ThreadMessage[]> {
    const conversation = await this.conversation(conversationId);
    if (!conversation) throw new QueryError(`no conversation with id ${conversationId}`);
    return readThread((q, p) => this.read(q, p), conversation, options.allBranches === true);
  }

  async listConversations(filter: ConversationFilter): Promise<ConversationPage> {
    return readConversationPage((q, p) => this.read(q, p), filter);
  }

  async messageContext(messageId: string, before: number, after: number): Promise<ThreadMessage[]> {
    const [row] = await this.read(
      `MATCH (m:Message {id: $id}) RETURN m._owner AS owner, m.position AS position`,
      { id: messageId },
    );
    const found = row
      ? {
          owner: String(row.owner),
          position: typeof row.position === 'number' ? row.position : null,
        }
      : undefined;
    return messageContextAt(this, found, messageId, before, after);
  }

  async sources(): Promise<string[]> {
    const rows = await this.read(
      `MATCH (c:Conversation) WHERE c.source IS NOT NULL RETURN DISTINCT c.source AS source ORDER BY source`,
    );
    return rows.map((row) => String(row.source));
  }

  async stats(): Promise<Stats> {
    return readStats((q, p) => this.read(q, p));
  }

  async subgraph(conversationId: string): Promise<GraphBatch | undefined> {
    const conversation = await this.conversation(conversationId);
    if (!conversation) return undefined;
    return readSubgraph((q, p) => this.read(q, p), conversation.id);
  }

  async counts(): Promise<{ nodes: Record<string, number>; edges: Record<string, number> }> {
    return readCounts((q, p) => this.read(q, p));
  }

  async deep(): Promise<boolean> {
    const [row] = await this.read(`MATCH (s:${META_LABEL} {key: 'store'}) RETURN s.deep AS deep`);
    return row?.deep === true;
  }

  async setDeep(deep: boolean): Promise<void> {
    await this.write((tx) =>
      tx.run(`MERGE (s:${META_LABEL} {key: 'store'}) SET s.deep = $deep`, { deep }),
    );
  }

  async deleteConversation(id: string): Promise<boolean> {
    const conversation = await this.conversation(id);
    if (!conversation) return false;
    // As a changed conversation is replaced: every node it owns goes, and so every edge of them.
    await this.write(async (tx) => {
      for (const label of [...OWNED_LABELS, VECTOR_LABEL])
        await tx.run(`MATCH (n:${label} {_owner: $owner}) DETACH DELETE n`, {
          owner: conversation.id,
        });
    });
    return true;
  }

  /**
   * Removes chatgraph's nodes and their edges, in transactions of 10,000 nodes so a large graph
   * does not need one huge transaction; anything else in the database is left alone.
   */
  async clear(): Promise<void> {
    await this.db.ensureSchema();
    const session = this.session('WRITE');
    try {
      for (const label of [...LABEL_NAMES, VECTOR_LABEL, MEMORY_VECTOR_LABEL, META_LABEL]) {
        await session.run(
          `MATCH (n:${label}) CALL { WITH n DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS`,
        );
      }
    } catch (error) {
      throw this.failure(error);
    } finally {
      await session.close();
    }
  }

  async close(): Promise<void> {
    await this.db.driver.close();
  }
}
