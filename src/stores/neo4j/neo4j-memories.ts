import neo4j from 'neo4j-driver';
import type { Memory } from '../../model/pam.js';
import { makeSnippet, snippetTerms } from '../../search/snippet.js';
import {
  matchOf,
  memoryNode,
  memoryText,
  type MemoryIndex,
  type MemoryMatch,
} from '../memory-index.js';
import { MATCH_END, MATCH_START } from '../store.js';
import { TEXT_ANALYZER } from './neo4j-full-text.js';
import type { Neo4jAccess } from './neo4j-vectors.js';
import { toLuceneQuery } from './lucene-query.js';

/** The full-text index over the memories' words (`_words`: content, summary and tags). */
export const MEMORY_TEXT_INDEX = 'chatgraph_memory_text';

/** Memory nodes in Neo4j, with DERIVED_FROM to their source and a full-text index of their own. */
export class Neo4jMemories implements MemoryIndex {
  constructor(private readonly db: Neo4jAccess) {}

  async replace(memories: readonly Memory[]): Promise<void> {
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
      await tx.run(`MATCH (:Memory)-[r:DERIVED_FROM]->() DELETE r`);
      await tx.run(
        `UNWIND $rows AS row MERGE (m:Memory {id: row.id}) SET m = row.props, m.id = row.id
         WITH m, row
         OPTIONAL MATCH (x:Message {id: row.message})
         OPTIONAL MATCH (c:Conversation {id: row.conversation})
         FOREACH (_ IN CASE WHEN x IS NULL THEN [] ELSE [1] END | MERGE (m)-[:DERIVED_FROM]->(x))
         FOREACH (_ IN CASE WHEN c IS NULL THEN [] ELSE [1] END | MERGE (m)-[:DERIVED_FROM]->(c))`,
        { rows },
      );
    });
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
      const props =
        typeof row.props === 'object' && row.props !== null
          ? (row.props as Record<string, unknown>)
          : {};
      const content = typeof props.content === 'string' ? props.content : '';
      return matchOf(
        String(row.id),
        Number(row.score),
        makeSnippet(content, terms, MATCH_START, MATCH_END),
        props,
      );
    });
  }
}
