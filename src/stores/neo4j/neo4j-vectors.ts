import neo4j, { type ManagedTransaction } from 'neo4j-driver';
import type { Row, SearchHit } from '../store.js';
import type {
  ConversationVector,
  EmbeddingText,
  IndexedModel,
  PendingConversation,
  VectorHit,
  VectorIndex,
  VectorQuery,
  VectorUnit,
} from '../vector-index.js';
import { holdsText } from '../../model/white-space.js';
import { META_LABEL } from './neo4j-schema.js';
import { VECTOR_INDEX, VECTOR_LABEL, vectorIndexStatement } from './neo4j-vector-index.js';
import {
  CANDIDATES_MIN,
  CANDIDATES_PER_HIT,
  DESCRIBED_COLUMNS,
  describedHit,
  hitOf,
  nearestQuery,
  num,
  str,
  strOrNull,
  vectorFilters,
} from './neo4j-vector-search.js';

/** What the store lends the vector index: its read and write transactions. */
export interface Neo4jAccess {
  read(query: string, params?: Record<string, unknown>): Promise<Row[]>;
  write<T>(work: (tx: ManagedTransaction) => Promise<T>): Promise<T>;
}

/**
 * Vectors in Neo4j: a {@link VECTOR_LABEL} node a chunk, owned (`_owner`) by its conversation
 * and deleted with it, searched through the native vector index (cosine); a Conversation's
 * `_vec_hash` records what its vectors were made from.
 */
export class Neo4jVectors implements VectorIndex {
  /**
   * What `search` read of its hits for `describe` (which a search by meaning asks next), by the
   * array it gave; the node ids kept to see that the array was not changed since.
   */
  private readonly descriptions = new WeakMap<
    readonly VectorHit[],
    { nodeIds: string[]; rows: Row[] }
  >();

  constructor(private readonly db: Neo4jAccess) {}

  async model(): Promise<IndexedModel | undefined> {
    const [row] = await this.db.read(
      `MATCH (s:${META_LABEL} {key: 'store'}) WHERE s.vector_model IS NOT NULL
       RETURN s.vector_model AS id, s.vector_dimensions AS dimensions,
              COUNT { MATCH (v:${VECTOR_LABEL}) } AS count`,
    );
    if (!row) return undefined;
    return { id: str(row.id), dimensions: num(row.dimensions), count: num(row.count) };
  }

  async reset(model: { id: string; dimensions: number }): Promise<void> {
    await this.db.write(async (tx) => {
      await tx.run(`MATCH (c:Conversation) REMOVE c._vec_hash`);
      await tx.run(`MATCH (v:${VECTOR_LABEL}) DETACH DELETE v`);
      await tx.run(
        `MERGE (s:${META_LABEL} {key: 'store'}) SET s.vector_model = $id, s.vector_dimensions = $dimensions`,
        { id: model.id, dimensions: neo4j.int(model.dimensions) },
      );
    });
    // The index's dimension is fixed when it is made: a new model gets a new index.
    await this.db.write((tx) => tx.run(`DROP INDEX ${VECTOR_INDEX} IF EXISTS`));
    await this.db.write((tx) => tx.run(vectorIndexStatement(model.dimensions)));
    await this.db.write((tx) => tx.run(`CALL db.awaitIndex('${VECTOR_INDEX}', 300)`));
  }

  async pending(): Promise<PendingConversation[]> {
    const rows = await this.db.read(
      `MATCH (c:Conversation) WHERE c._vec_hash IS NULL OR c._vec_hash <> c._hash
       RETURN c.id AS owner, c._hash AS hash, c._vec_hash AS embedded ORDER BY c.created_at DESC`,
    );
    return rows.map((r) => ({
      owner: str(r.owner),
      hash: str(r.hash),
      embedded: strOrNull(r.embedded),
    }));
  }

  async texts(owner: string): Promise<EmbeddingText[]> {
    const [c] = await this.db.read(
      `MATCH (c:Conversation {id: $owner})
       OPTIONAL MATCH (c)-[:HAS_MESSAGE]->(first:Message) WHERE first.position = 0
       RETURN c.title AS title, c.source AS source, c.created_at AS createdAt, first.id AS first`,
      { owner },
    );
    if (!c) return [];
    const source = str(c.source);
    const texts: EmbeddingText[] = [];
    const title = str(c.title).trim();
    if (title)
      texts.push({
        nodeId: owner,
        kind: 'title',
        messageId: strOrNull(c.first),
        text: title,
        source,
        role: null,
        createdAt: strOrNull(c.createdAt),
      });
    const messages = await this.db.read(
      `MATCH (m:Message {_owner: $owner}) WHERE trim(coalesce(m.content, '')) <> ''
       RETURN m.id AS id, m.role AS role, m.content AS content, m.created_at AS createdAt ORDER BY m._seq`,
      { owner },
    );
    // Cypher's trim leaves some of Unicode's white space: the same test as the SQLite store's.
    for (const m of messages.filter((row) => holdsText(str(row.content))))
      texts.push({
        nodeId: str(m.id),
        kind: 'message',
        messageId: str(m.id),
        text: str(m.content),
        source,
        role: strOrNull(m.role),
        createdAt: strOrNull(m.createdAt),
      });
    const attachments = await this.db.read(
      `MATCH (m:Message)-[:HAS_ATTACHMENT]->(a:Attachment {_owner: $owner}) WHERE trim(coalesce(a.content, '')) <> ''
       RETURN a.id AS id, a.content AS content, m.id AS messageId, m.role AS role, m.created_at AS createdAt`,
      { owner },
    );
    for (const a of attachments.filter((row) => holdsText(str(row.content))))
      texts.push({
        nodeId: str(a.id),
        kind: 'attachment',
        messageId: str(a.messageId),
        text: str(a.content),
        source,
        role: strOrNull(a.role),
        createdAt: strOrNull(a.createdAt),
      });
    return texts;
  }

  async write(owner: string, hash: string, units: readonly VectorUnit[]): Promise<void> {
    const rows = units.map((u) => ({
      node_id: u.nodeId,
      kind: u.kind,
      message_id: u.messageId,
      chunk: neo4j.int(u.chunk),
      start: neo4j.int(u.start),
      end: neo4j.int(u.end),
      text_hash: u.textHash,
      source: u.source,
      role: u.role,
      created_at: u.createdAt,
      embedding: Array.from(u.vector),
    }));
    await this.db.write(async (tx) => {
      await tx.run(`MATCH (v:${VECTOR_LABEL} {_owner: $owner}) DETACH DELETE v`, { owner });
      for (let i = 0; i < rows.length; i += 500)
        await tx.run(
          `UNWIND $rows AS row CREATE (v:${VECTOR_LABEL}) SET v = row, v._owner = $owner`,
          { rows: rows.slice(i, i + 500), owner },
        );
      await tx.run(`MATCH (c:Conversation {id: $owner}) SET c._vec_hash = $hash`, { owner, hash });
    });
  }

  async search(query: VectorQuery): Promise<VectorHit[]> {
    const offset = query.offset ?? 0;
    const wanted = offset + query.limit;
    const { where, params } = vectorFilters(query);
    const vector = Array.from(query.vector);
    // The index returns the k nearest before filters: widen k until the page is full. How many
    // vectors there are (a round trip) is asked only when a page comes back short.
    let count: number | undefined;
    for (let k = Math.max(CANDIDATES_MIN, wanted * CANDIDATES_PER_HIT); ; k *= 8) {
      const rows = await this.db.read(nearestQuery(where), {
        ...params,
        vector,
        k: neo4j.int(count === undefined ? k : Math.min(k, count)),
        wanted: neo4j.int(wanted),
      });
      if (rows.length < wanted) count ??= (await this.model())?.count ?? 0;
      if (rows.length >= wanted || k >= (count ?? 0)) {
        const page = rows.slice(offset, wanted);
        const hits = page.map(hitOf);
        this.descriptions.set(hits, { nodeIds: hits.map((h) => h.nodeId), rows: page });
        return hits;
      }
    }
  }

  async textHashes(): Promise<Set<string>> {
    const rows = await this.db.read(
      `MATCH (v:${VECTOR_LABEL}) RETURN DISTINCT v.text_hash AS hash`,
    );
    return new Set(rows.map((r) => str(r.hash)));
  }

  async conversationVectors(limit: number): Promise<ConversationVector[]> {
    // Neo4j averages the lists itself: one row a conversation crosses the wire, not a chunk.
    const rows = await this.db.read(
      `MATCH (c:Conversation) WHERE EXISTS { MATCH (:${VECTOR_LABEL} {_owner: c.id}) }
       WITH c ORDER BY c.created_at DESC, c.id LIMIT $limit
       MATCH (v:${VECTOR_LABEL} {_owner: c.id})
       WITH c, collect(v.embedding) AS vectors
       RETURN c.id AS owner, c.name AS title, c.source AS source,
              [i IN range(0, size(vectors[0]) - 1) |
                reduce(s = 0.0, e IN vectors | s + e[i]) / size(vectors)] AS vector`,
      { limit: neo4j.int(limit) },
    );
    return rows.map((r) => ({
      owner: str(r.owner),
      title: str(r.title),
      source: str(r.source),
      vector: Float32Array.from(Array.isArray(r.vector) ? r.vector.map(num) : []),
    }));
  }

  async vectorOf(nodeId: string): Promise<Float32Array | undefined> {
    const [row] = await this.db.read(
      `MATCH (v:${VECTOR_LABEL} {node_id: $nodeId}) RETURN v.embedding AS embedding ORDER BY v.chunk LIMIT 1`,
      { nodeId },
    );
    const embedding = row?.embedding;
    return Array.isArray(embedding) ? Float32Array.from(embedding.map(num)) : undefined;
  }

  /**
   * The hits as a search shows them: read with the hits when these are a page {@link search}
   * gave (unchanged since), else in a round trip of their own.
   */
  async describe(hits: readonly VectorHit[]): Promise<SearchHit[]> {
    if (hits.length === 0) return [];
    const kept = this.descriptions.get(hits);
    const rows =
      kept?.nodeIds.length === hits.length && kept.nodeIds.every((id, i) => id === hits[i]?.nodeId)
        ? kept.rows
        : await this.describeRows(hits);
    return hits.flatMap((hit, i) => describedHit(hit, rows[i]));
  }

  /** The rows of {@link DESCRIBED_COLUMNS} of each hit in turn (undefined where none is). */
  private async describeRows(hits: readonly VectorHit[]): Promise<(Row | undefined)[]> {
    const rows = await this.db.read(
      `UNWIND $hits AS h
       MATCH (c:Conversation {id: h.owner})
       OPTIONAL MATCH (m:Message {id: h.messageId})
       OPTIONAL MATCH (a:Attachment {id: h.nodeId})
       RETURN h.i AS i, ${DESCRIBED_COLUMNS}`,
      {
        hits: hits.map((h, i) => ({
          i: neo4j.int(i),
          owner: h.owner,
          messageId: h.messageId ?? '',
          nodeId: h.nodeId,
        })),
      },
    );
    const byIndex = new Map(rows.map((r) => [num(r.i), r]));
    return hits.map((_, i) => byIndex.get(i));
  }
}
