import neo4j, { type Driver, type ManagedTransaction, type Session } from 'neo4j-driver';
import type { GraphBatch, GraphEdge, GraphNode } from '../../graph/graph-batch.js';
import {
  EDGE_KINDS,
  LABEL_NAMES,
  SHARED_LABELS,
  type EdgeKind,
  type Label,
} from '../../graph/schema.js';
import { batchHash } from '../batch-hash.js';
import { assertReadOnly, footprint } from '../cypher/cypher-text.js';
import { conversationConditions, conversationOrder } from '../query-conditions.js';
import { pageBounds } from '../page-bounds.js';
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
import { messageContextAt, treeOrder } from '../thread-tree.js';
import { ATTACHMENT_COLUMNS, withAttachments } from '../thread-attachments.js';
import { connectNeo4j, connectionError, errorCode } from './neo4j-connect.js';
import {
  META_LABEL,
  OWNED_LABELS,
  countEdges,
  integerProperties,
  mergeEdges,
  mergeNodes,
  schemaStatements,
} from './neo4j-schema.js';
import { Neo4jMemories } from './neo4j-memories.js';
import { Neo4jVectors, VECTOR_LABEL } from './neo4j-vectors.js';
import { STATS_ROWS, conversationRows, messageRows, parseRows } from './neo4j-rows.js';
import type { Neo4jTarget } from './neo4j-target.js';
import { dropOutdatedTextIndex, TEXT_INDEX } from './neo4j-full-text.js';
import { CYPHER, searchNeo4j } from './neo4j-search.js';
import { fromRecord, toParameter } from './neo4j-values.js';
import { runUserQuery } from './neo4j-user-query.js';
import { CLI_QUERY_LIMITS } from '../query-limits.js';

/** Nodes and edges per transaction: big enough for UNWIND to pay, small enough to retry. */
const GROUP_ROWS = 20_000;
/** Rows per UNWIND statement inside a transaction. */
const STATEMENT_ROWS = 5_000;

const CONVERSATION_COLUMNS = `c.id AS id, c.conversation_id AS platformId, c.title AS title, c.name AS name,
  c.source AS source, c.created_at AS createdAt, c.updated_at AS updatedAt, c.message_count AS messageCount`;
const MESSAGE_COLUMNS = `m.id AS id, m.role AS role, coalesce(m.content, '') AS content, m.created_at AS createdAt,
  m.model_slug AS model, m.parent_id AS parentId, coalesce(m.is_thought, false) AS isThought,
  coalesce(m.hidden, false) AS hidden, coalesce(m.on_shown_thread, false) AS onShownThread`;

/**
 * The graph in a Neo4j 5 server (or Aura) over Bolt: the same Store as the embedded one.
 * Conversations are written in groups, each one explicit transaction the driver retries on
 * transient errors, nodes then edges by `UNWIND … MERGE`; a group that never committed is
 * written again by the next push, and MERGE keeps that free of duplicates.
 */
export class Neo4jStore implements Store {
  private schemaReady = false;
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

  private constructor(
    private readonly driver: Driver,
    private readonly target: Neo4jTarget,
  ) {}

  /** Connects and checks the server (see {@link connectNeo4j}); nothing is written yet. */
  static async open(target: Neo4jTarget): Promise<Neo4jStore> {
    return new Neo4jStore(await connectNeo4j(target), target);
  }

  /** Where the store is, for messages. */
  get url(): string {
    return this.target.url;
  }

  private session(mode: 'READ' | 'WRITE'): Session {
    return this.driver.session({
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
      ...(this.target.database ? { database: this.target.database } : {}),
    });
  }

  private async read(query: string, params: Record<string, unknown> = {}): Promise<Row[]> {
    const session = this.session('READ');
    try {
      return await session.executeRead(async (tx) =>
        (await tx.run(query, params)).records.map(fromRecord),
      );
    } catch (error) {
      throw this.failure(error);
    } finally {
      await session.close();
    }
  }

  private async write<T>(work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    await this.ensureSchema();
    const session = this.session('WRITE');
    try {
      return await session.executeWrite(work);
    } catch (error) {
      throw this.failure(error);
    } finally {
      await session.close();
    }
  }

  // A lost server mid-way is a connection error (one sentence); anything else a query error.
  private failure(error: unknown): Error {
    if (error instanceof QueryError) return error;
    const code = errorCode(error);
    if (
      code.startsWith('Neo.ClientError.Statement') ||
      code.startsWith('Neo.ClientError.Procedure')
    )
      return new QueryError(firstLine(error));
    return connectionError(this.target, error);
  }

  /** Creates the constraints and indexes before the first write, and waits until they are online. */
  private async ensureSchema(): Promise<void> {
    if (this.schemaReady) return;
    const session = this.session('WRITE');
    try {
      await dropOutdatedTextIndex(session);
      for (const statement of schemaStatements()) await session.run(statement);
      await session.run('CALL db.awaitIndexes(300)');
    } catch (error) {
      throw this.failure(error);
    } finally {
      await session.close();
    }
    this.schemaReady = true;
  }

  async upsert(batches: AsyncIterable<GraphBatch> | Iterable<GraphBatch>): Promise<WriteReport> {
    const writer = this.writer(await this.deep());
    for await (const batch of batches) await writer.write(batch);
    return writer.end();
  }

  writer(deep: boolean): GraphWriter {
    const report: WriteReport = { written: 0, unchanged: 0 };
    let queue: HashedBatch[] = [];
    let rows = 0;
    // One group is written while the next is gathered.
    let inFlight: Promise<void> = Promise.resolve();
    const send = async (): Promise<void> => {
      const group = queue;
      queue = [];
      rows = 0;
      await inFlight;
      inFlight = this.writeGroup(group, deep).then((r) => {
        report.written += r.written;
        report.unchanged += r.unchanged;
      });
      // Keep a failure from being unhandled before someone awaits it.
      inFlight.catch(() => undefined);
    };
    return {
      write: async (batch) => {
        queue.push(batch);
        rows += batch.nodes.length + batch.edges.length;
        if (rows >= GROUP_ROWS) await send();
      },
      flush: async () => {
        if (queue.length > 0) await send();
        await inFlight;
      },
      end: async () => {
        if (queue.length > 0) await send();
        await inFlight;
        return { ...report };
      },
    };
  }

  /** Writes a group of conversations in one transaction, skipping those already written as they are. */
  private async writeGroup(group: HashedBatch[], deep: boolean): Promise<WriteReport> {
    // The last batch of a conversation given twice wins.
    const byOwner = new Map<string, HashedBatch>();
    for (const batch of group) byOwner.set(batch.owner, batch);
    const hashes = new Map([...byOwner.values()].map((b) => [b.owner, batchHash(b)]));
    return this.write(async (tx) => {
      const stored = await tx.run(
        `UNWIND $ids AS id MATCH (c:Conversation {id: id}) RETURN c.id AS id, c._hash AS hash, c._deep AS deep`,
        { ids: [...byOwner.keys()] },
      );
      const unchanged = new Set<string>();
      const replaced: string[] = [];
      for (const record of stored.records) {
        const id = record.get('id') as string;
        if (record.get('hash') === hashes.get(id) && record.get('deep') === deep) unchanged.add(id);
        else replaced.push(id);
      }
      const batches = [...byOwner.values()].filter((b) => !unchanged.has(b.owner));
      // A changed conversation loses every node it owned, and so every edge of those nodes.
      if (replaced.length > 0) {
        for (const label of [...OWNED_LABELS, VECTOR_LABEL]) {
          await tx.run(`UNWIND $owners AS o MATCH (n:${label} {_owner: o}) DETACH DELETE n`, {
            owners: replaced,
          });
        }
      }
      const nodes = new Map<Label, { id: string; props: Record<string, unknown> }[]>();
      const edges = new Map<string, { from: string; to: string }[]>();
      for (const batch of batches) {
        let seq = 0;
        for (const node of batch.nodes) {
          const props = propertiesOf(node);
          if (!SHARED_LABELS.has(node.label)) props._owner = batch.owner;
          if (node.label === 'Message') props._seq = neo4j.int(seq++);
          if (node.label === 'Conversation') {
            props._hash = hashes.get(batch.owner);
            props._deep = deep;
          }
          const list = nodes.get(node.label);
          if (list) list.push({ id: node.id, props });
          else nodes.set(node.label, [{ id: node.id, props }]);
        }
        for (const edge of batch.edges) {
          const list = edges.get(edge.kind);
          if (list) list.push({ from: edge.from, to: edge.to });
          else edges.set(edge.kind, [{ from: edge.from, to: edge.to }]);
        }
      }
      for (const label of LABEL_NAMES) {
        for (const rows of chunks(nodes.get(label) ?? []))
          await tx.run(mergeNodes(label), { rows });
      }
      for (const kind of EDGE_KINDS) {
        for (const rows of chunks(edges.get(kind) ?? [])) await tx.run(mergeEdges(kind), { rows });
      }
      return { written: batches.length, unchanged: unchanged.size };
    });
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
    await this.assertSearchable();
    return searchNeo4j((q, params) => this.read(q, params), query);
  }

  // Before anything is imported there is no index to search: say so, not "no such index".
  private async assertSearchable(): Promise<void> {
    const rows = await this.read(
      `SHOW FULLTEXT INDEXES YIELD name WHERE name = $name RETURN name`,
      {
        name: TEXT_INDEX,
      },
    );
    if (rows.length === 0) {
      throw new QueryError(
        `nothing is imported in Neo4j at ${this.target.url} yet: run "chatgraph import" or "chatgraph push" with --neo4j first`,
      );
    }
  }

  async conversation(id: string): Promise<ConversationInfo | undefined> {
    const [byId] = await this.read(
      `MATCH (c:Conversation {id: $id}) RETURN ${CONVERSATION_COLUMNS}`,
      { id },
    );
    if (byId) return conversationRows([byId])[0];
    const [byPlatform] = await this.read(
      `MATCH (c:Conversation {conversation_id: $id}) RETURN ${CONVERSATION_COLUMNS} ORDER BY c.id LIMIT 1`,
      { id },
    );
    return byPlatform ? conversationRows([byPlatform])[0] : undefined;
  }

  async thread(
    conversationId: string,
    options: { allBranches?: boolean } = {},
  ): Promise<ThreadMessage[]> {
    const conversation = await this.conversation(conversationId);
    if (!conversation) throw new QueryError(`no conversation with id ${conversationId}`);
    const attachments = await this.read(
      `MATCH (a:Attachment {_owner: $id}) RETURN ${ATTACHMENT_COLUMNS.cypher} ORDER BY a.message_id, a.position`,
      { id: conversation.id },
    );
    if (!options.allBranches) {
      const rows = messageRows(
        await this.read(
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
      await this.read(`MATCH (m:Message {_owner: $id}) RETURN ${MESSAGE_COLUMNS} ORDER BY m._seq`, {
        id: conversation.id,
      }),
    );
    return treeOrder(withAttachments(rows, attachments));
  }

  async listConversations(filter: ConversationFilter): Promise<ConversationPage> {
    const { where, params } = conversationConditions(filter, CYPHER);
    const { limit, offset } = pageBounds(filter.limit ?? 20, filter.offset ?? 0);
    const order = conversationOrder(filter.sort);
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const [total] = await this.read(
      `MATCH (c:Conversation) ${clause} RETURN count(c) AS n`,
      params,
    );
    const items = await this.read(
      `MATCH (c:Conversation) ${clause} RETURN ${CONVERSATION_COLUMNS} ORDER BY ${order} SKIP $offset LIMIT $limit`,
      { ...params, offset: neo4j.int(offset), limit: neo4j.int(limit) },
    );
    return { total: Number(total?.n ?? 0), items: conversationRows(items) };
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
    const [totals] = await this.read(
      `CALL { MATCH (c:Conversation) RETURN count(c) AS conversations }
       CALL { MATCH (m:Message) RETURN count(m) AS messages }
       RETURN conversations, messages`,
    );
    return {
      conversations: Number(totals?.conversations ?? 0),
      messages: Number(totals?.messages ?? 0),
      bySource: parseRows(
        STATS_ROWS.bySource,
        await this.read(
          `MATCH (c:Conversation) RETURN c.source AS source, count(c) AS conversations,
           coalesce(sum(c.message_count), 0) AS messages ORDER BY source`,
        ),
        'stats by source',
      ),
      byMonth: parseRows(
        STATS_ROWS.byMonth,
        await this.read(
          `MATCH (c:Conversation)-[:HAS_MESSAGE]->(m:Message)
         RETURN substring(m.created_at, 0, 7) AS month, c.source AS source, count(m) AS messages
         ORDER BY month, source`,
        ),
        'stats by month',
      ),
      byRole: parseRows(
        STATS_ROWS.byRole,
        await this.read(
          `MATCH (m:Message) RETURN m.role AS role, count(m) AS messages ORDER BY messages DESC, role`,
        ),
        'stats by role',
      ),
      byModel: parseRows(
        STATS_ROWS.byModel,
        await this.read(
          `MATCH (m:Message) WHERE m.model_slug IS NOT NULL
         RETURN m.model_slug AS model, count(m) AS messages ORDER BY messages DESC, model LIMIT 10`,
        ),
        'stats by model',
      ),
    };
  }

  async subgraph(conversationId: string): Promise<GraphBatch | undefined> {
    const conversation = await this.conversation(conversationId);
    if (!conversation) return undefined;
    const owner = conversation.id;
    // Every node the conversation owns, the shared nodes they touch, and every edge leaving an
    // owned node or reaching the Conversation from a shared one (IMPORTED, HAS_SESSION); one
    // indexed lookup per label, since a label-less property match would scan the database.
    const owned = (match: (label: Label) => string): string =>
      OWNED_LABELS.map(match).join(' UNION ');
    const nodeRows = await this.read(
      `${owned((l) => `MATCH (n:${l} {_owner: $owner}) RETURN '${l}' AS label, n AS node`)}
       UNION ${owned((l) => `MATCH (:${l} {_owner: $owner})--(s) WHERE s._owner IS NULL RETURN labels(s)[0] AS label, s AS node`)}`,
      { owner },
    );
    const edgeRows = await this.read(
      `${owned((l) => `MATCH (a:${l} {_owner: $owner})-[r]->(b) RETURN type(r) AS type, '${l}' AS fromLabel, a.id AS from, b.id AS to`)}
       UNION MATCH (a)-[r]->(:Conversation {id: $owner}) WHERE a._owner IS NULL
       RETURN type(r) AS type, labels(a)[0] AS fromLabel, a.id AS from, $owner AS to`,
      { owner },
    );
    const nodes: GraphNode[] = nodeRows.map((row) => {
      const { labels: _labels, id, ...properties } = row.node as Record<string, unknown>;
      return {
        label: row.label as Label,
        id: String(id),
        properties: properties as GraphNode['properties'],
      };
    });
    const edges: GraphEdge[] = edgeRows.map((row) => ({
      kind: (row.type === 'NEXT' && row.fromLabel === 'TraceStep'
        ? 'STEP_NEXT'
        : row.type === 'DERIVED_FROM' && row.to === owner
          ? 'DERIVED_FROM_CONVERSATION'
          : row.type) as EdgeKind,
      from: String(row.from),
      to: String(row.to),
    }));
    return { owner, nodes, edges };
  }

  async counts(): Promise<{ nodes: Record<string, number>; edges: Record<string, number> }> {
    const nodes: Record<string, number> = {};
    const edges: Record<string, number> = {};
    for (const label of LABEL_NAMES) {
      const [row] = await this.read(`MATCH (n:${label}) RETURN count(n) AS n`);
      nodes[label] = Number(row?.n ?? 0);
    }
    for (const kind of EDGE_KINDS) {
      const [row] = await this.read(countEdges(kind));
      edges[kind] = Number(row?.n ?? 0);
    }
    return { nodes, edges };
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
    await this.ensureSchema();
    const session = this.session('WRITE');
    try {
      for (const label of [...LABEL_NAMES, VECTOR_LABEL, META_LABEL]) {
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
    await this.driver.close();
  }
}

/** A node's properties as Neo4j takes them: integers as integers, no nulls. */
function propertiesOf(node: GraphNode): Record<string, unknown> {
  const integers = integerProperties(node.label);
  const props: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node.properties)) {
    if (value === null) continue;
    props[key] = integers.has(key) && typeof value === 'number' ? neo4j.int(value) : value;
  }
  return props;
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += STATEMENT_ROWS) out.push(rows.slice(i, i + STATEMENT_ROWS));
  return out;
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n').find((line) => line.trim() !== '') ?? message).trim();
}
