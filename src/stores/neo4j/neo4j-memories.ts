import neo4j, { type ManagedTransaction } from 'neo4j-driver';
import { edgeTypeName } from '../../graph/schema.js';
import type { Memory, Relation } from '../../model/pam.js';
import { makeSnippet, snippetTerms } from '../../search/snippet.js';
import {
  matchOf,
  memoryNode,
  memoryText,
  RELATION_EDGE_KINDS,
  RELATION_EDGES,
  type MemoryIndex,
  type MemoryMatch,
  type MemoryVector,
  type MemoryVectorModel,
} from '../memory-index.js';
import { MATCH_END, MATCH_START } from '../store.js';
import { TEXT_ANALYZER } from './neo4j-full-text.js';
import type { Neo4jAccess } from './neo4j-vectors.js';
import { toLuceneQuery } from './lucene-query.js';

/** The full-text index over the memories' words (`_words`: content, summary and tags). */
export const MEMORY_TEXT_INDEX = 'chatgraph_memory_text';
/**
 * The label of a memory's vector (from the bundle's `embeddings.json`): chatgraph's own, beside
 * the Memory node so user Cypher's `RETURN m` is not 384 numbers long. Memories are few: a search
 * compares them all, with no vector index to keep in step with the model.
 */
export const MEMORY_VECTOR_LABEL = 'ChatgraphMemoryVector';

const props = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};

// Every relationship type a relation is (Cypher's `A|B` form), for deleting them all at once.
const RELATION_TYPE_NAMES = [...new Set(RELATION_EDGE_KINDS.map(edgeTypeName))].join('|');

/** PAM relations as edges between the Memory nodes the store holds (one type per relation type). */
async function writeRelations(
  tx: ManagedTransaction,
  relations: readonly Relation[],
): Promise<void> {
  for (const [type, kind] of Object.entries(RELATION_EDGES)) {
    const rows = relations.filter((r) => r.type === type).map((r) => ({ from: r.from, to: r.to }));
    if (rows.length === 0) continue;
    await tx.run(
      `UNWIND $rows AS row MATCH (a:Memory {id: row.from}) MATCH (b:Memory {id: row.to})
       MERGE (a)-[:${edgeTypeName(kind)}]->(b)`,
      { rows },
    );
  }
}

/** Memory nodes in Neo4j, with DERIVED_FROM to their source and a full-text index of their own. */
export class Neo4jMemories implements MemoryIndex {
  constructor(private readonly db: Neo4jAccess) {}

  async replace(
    memories: readonly Memory[],
    vectors: readonly MemoryVector[] = [],
    relations: readonly Relation[] = [],
  ): Promise<void> {
    const known = new Set(memories.map((m) => m.id));
    const rows = memories.map((memory) => {
      const { properties, derivedFrom } = memoryNode(memory);
      return {
        id: memory.id,
        props: {
          ...properties,
          _words: memoryText(memory),
        },
        message: derivedFrom?.kind === 'message' ? derivedFrom.id : null,
        conversation: derivedFrom?.kind === 'conversation' ? derivedFrom.id : null,
      };
    });
    await this.db.write(async (tx) => {
      await tx.run(
        `CREATE FULLTEXT INDEX ${MEMORY_TEXT_INDEX} IF NOT EXISTS FOR (n:Memory) ON EACH [n._words] OPTIONS {indexConfig: {\`fulltext.analyzer\`: '${TEXT_ANALYZER}'}}`,
      );
    });
    await this.db.write(async (tx) => {
      await tx.run(`MATCH (m:Memory) WHERE NOT m.id IN $ids DETACH DELETE m`, {
        ids: rows.map((r) => r.id),
      });
      // A memory's source edges; its relations (DERIVED_FROM another memory too) are made below.
      await tx.run(`MATCH (:Memory)-[r:DERIVED_FROM]->(x) WHERE NOT x:Memory DELETE r`);
      await tx.run(`MATCH (:Memory)-[r:${RELATION_TYPE_NAMES}]->(:Memory) DELETE r`);
      await tx.run(
        `UNWIND $rows AS row MERGE (m:Memory {id: row.id}) SET m = row.props, m.id = row.id
         WITH m, row
         OPTIONAL MATCH (x:Message {id: row.message})
         OPTIONAL MATCH (c:Conversation {id: row.conversation})
         FOREACH (_ IN CASE WHEN x IS NULL THEN [] ELSE [1] END | MERGE (m)-[:DERIVED_FROM]->(x))
         FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END | MERGE (m)-[:DERIVED_FROM]->(c))`,
        { rows },
      );
      await writeRelations(tx, relations);
      await tx.run(`MATCH (v:${MEMORY_VECTOR_LABEL}) DELETE v`);
      await tx.run(
        `UNWIND $vectors AS v CREATE (:${MEMORY_VECTOR_LABEL} {memory_id: v.memoryId, model: v.model, dimensions: v.dimensions, embedding: v.vector})`,
        {
          vectors: vectors
            .filter((v) => known.has(v.memoryId))
            .map((v) => ({
              memoryId: v.memoryId,
              model: v.model,
              dimensions: neo4j.int(v.vector.length),
              vector: Array.from(v.vector),
            })),
        },
      );
    });
  }

  async upsert(
    memories: readonly Memory[],
    vectors: readonly MemoryVector[] = [],
    relations: readonly Relation[] = [],
  ): Promise<void> {
    const rows = memories.map((memory) => {
      const { properties, derivedFrom } = memoryNode(memory);
      return {
        id: memory.id,
        props: { ...properties, _words: memoryText(memory) },
        message: derivedFrom?.kind === 'message' ? derivedFrom.id : null,
        conversation: derivedFrom?.kind === 'conversation' ? derivedFrom.id : null,
      };
    });
    const ids = rows.map((r) => r.id);
    await this.db.write(async (tx) => {
      await tx.run(
        `CREATE FULLTEXT INDEX ${MEMORY_TEXT_INDEX} IF NOT EXISTS FOR (n:Memory) ON EACH [n._words] OPTIONS {indexConfig: {\`fulltext.analyzer\`: '${TEXT_ANALYZER}'}}`,
      );
    });
    await this.db.write(async (tx) => {
      await tx.run(
        `MATCH (m:Memory)-[r:DERIVED_FROM]->(x) WHERE m.id IN $ids AND NOT x:Memory DELETE r`,
        { ids },
      );
      await tx.run(
        `UNWIND $rows AS row MERGE (m:Memory {id: row.id}) SET m = row.props, m.id = row.id
         WITH m, row
         OPTIONAL MATCH (x:Message {id: row.message})
         OPTIONAL MATCH (c:Conversation {id: row.conversation})
         FOREACH (_ IN CASE WHEN x IS NULL THEN [] ELSE [1] END | MERGE (m)-[:DERIVED_FROM]->(x))
         FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END | MERGE (m)-[:DERIVED_FROM]->(c))`,
        { rows },
      );
      await writeRelations(tx, relations);
      const given = vectors.map((v) => v.memoryId);
      await tx.run(
        `MATCH (v:${MEMORY_VECTOR_LABEL}) WHERE v.memory_id IN $ids OR v.memory_id IN $given DELETE v`,
        { ids, given },
      );
      await tx.run(
        `UNWIND $vectors AS v MATCH (:Memory {id: v.memoryId})
         CREATE (:${MEMORY_VECTOR_LABEL} {memory_id: v.memoryId, model: v.model, dimensions: v.dimensions, embedding: v.vector})`,
        {
          vectors: vectors.map((v) => ({
            memoryId: v.memoryId,
            model: v.model,
            dimensions: neo4j.int(v.vector.length),
            vector: Array.from(v.vector),
          })),
        },
      );
    });
  }

  async searchByMeaning(
    vector: Float32Array,
    model: string,
    limit: number,
  ): Promise<MemoryMatch[]> {
    const rows = await this.db.read(
      `MATCH (v:${MEMORY_VECTOR_LABEL} {model: $model}) WHERE size(v.embedding) = $dimensions
       MATCH (m:Memory {id: v.memory_id}) WHERE m.status = 'active'
       WITH m, vector.similarity.cosine(v.embedding, $vector) AS score
       RETURN m.id AS id, score, m {.*} AS props ORDER BY score DESC LIMIT $limit`,
      {
        model,
        dimensions: neo4j.int(vector.length),
        vector: Array.from(vector),
        limit: neo4j.int(limit),
      },
    );
    const none = snippetTerms('');
    return rows.map((row) => {
      const p = props(row.props);
      const content = typeof p.content === 'string' ? p.content : '';
      // Neo4j's cosine is (1 + cosine) / 2: given back as the cosine, as SQLite gives it.
      return matchOf(
        String(row.id),
        2 * Number(row.score) - 1,
        makeSnippet(content, none, MATCH_START, MATCH_END),
        p,
      );
    });
  }

  async vectorModel(): Promise<MemoryVectorModel | undefined> {
    const [row] = await this.db.read(
      `MATCH (v:${MEMORY_VECTOR_LABEL}) RETURN v.model AS id, v.dimensions AS dimensions, count(*) AS count ORDER BY count DESC LIMIT 1`,
    );
    if (!row) return undefined;
    return { id: String(row.id), dimensions: Number(row.dimensions), count: Number(row.count) };
  }

  async search(
    text: string,
    limit: number,
    options: { all?: boolean } = {},
  ): Promise<MemoryMatch[]> {
    const lucene = toLuceneQuery(text);
    if (lucene === undefined) return [];
    let rows;
    try {
      rows = await this.db.read(
        `CALL db.index.fulltext.queryNodes('${MEMORY_TEXT_INDEX}', $q) YIELD node, score
         WHERE $all OR node.status = 'active'
         RETURN node.id AS id, score, node {.*} AS props
         ORDER BY score DESC LIMIT $limit`,
        { q: lucene, limit: neo4j.int(limit), all: options.all === true },
      );
    } catch (error) {
      // No memory was ever written to this server: there is no index, and nothing to find.
      if (/no such fulltext schema index|There is no such fulltext/i.test(String(error))) return [];
      throw error;
    }
    const terms = snippetTerms(text);
    return rows.map((row) => {
      const p = props(row.props);
      const content = typeof p.content === 'string' ? p.content : '';
      return matchOf(
        String(row.id),
        Number(row.score),
        makeSnippet(content, terms, MATCH_START, MATCH_END),
        p,
      );
    });
  }
}
