import { passageSnippet } from '../vector-passage.js';
import { dateBound } from '../date-bound.js';
import type { Row, SearchHit } from '../store.js';
import type { UnitKind, VectorHit, VectorQuery } from '../vector-index.js';
import { META_LABEL } from './neo4j-schema.js';
import { VECTOR_INDEX } from './neo4j-vector-index.js';

export const str = (value: unknown): string => (typeof value === 'string' ? value : '');
export const strOrNull = (value: unknown): string | null =>
  typeof value === 'string' ? value : null;
export const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

const KINDS: ReadonlySet<string> = new Set<UnitKind>(['message', 'attachment', 'title']);
const kindOf = (value: unknown): UnitKind =>
  KINDS.has(str(value)) ? (str(value) as UnitKind) : 'message';

/**
 * Candidates asked of the index for a page: at least {@link CANDIDATES_MIN}, else this many a
 * hit wanted (HNSW's search list is k long: more candidates find more of the true nearest).
 * With the index's settings, 100 candidates find 0.996 of the exact ten at 100,000 vectors and
 * 200 all of them (`bench/recall.mjs --only-neo4j --sweep`); a hybrid search's 60 ask 180.
 * Re-scoring the candidates exactly found none more: the index holds the full vectors.
 */
export const CANDIDATES_PER_HIT = 3;
export const CANDIDATES_MIN = 100;

/** The query's filters on a candidate `node`, as Cypher conditions and their parameters. */
export function vectorFilters(query: VectorQuery): {
  where: string[];
  params: Record<string, unknown>;
} {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (query.source !== undefined) {
    where.push('node.source = $source');
    params.source = query.source;
  }
  if (query.role !== undefined) {
    where.push('node.role = $role');
    params.role = query.role;
  }
  if (query.since !== undefined) {
    where.push('node.created_at >= $since');
    params.since = dateBound(query.since, 'since');
  }
  if (query.until !== undefined) {
    where.push('node.created_at < $until');
    params.until = dateBound(query.until, 'until');
  }
  if (query.exclude !== undefined) {
    where.push('node.node_id <> $exclude');
    params.exclude = query.exclude;
  }
  return { where, params };
}

/** What {@link describedHit} reads of a hit's conversation, message and attachment. */
export const DESCRIBED_COLUMNS = `c.id AS conversationId, c.conversation_id AS platformId,
  c.name AS title, c.source AS source, m.id AS describedMessageId, m.role AS role,
  m.created_at AS createdAt, m.content AS content, a.name AS attachmentName,
  a.content AS attachmentText`;

/**
 * The `$wanted` nearest nodes of `$k` candidates kept by the filters, each by its nearest chunk
 * (the chunks sorted first, so the one collected first is the one scored), best first, each
 * with what `describe` shows of it: one statement, one round trip, where a search and its
 * description were three (the vector count, the nearest, their description). The store's meta
 * node comes first, so a store that never had vectors (and has no index yet) gives no rows
 * instead of an error. `rank` keeps the order the index gave, ties included, through the
 * lookups of the description.
 */
export function nearestQuery(where: readonly string[]): string {
  return `MATCH (s:${META_LABEL} {key: 'store'}) WHERE s.vector_model IS NOT NULL
    CALL db.index.vector.queryNodes('${VECTOR_INDEX}', $k, $vector) YIELD node, score
    ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
    WITH node, score ORDER BY score DESC
    WITH node.node_id AS nodeId, max(score) AS score, collect(node)[0] AS node
    ORDER BY score DESC LIMIT $wanted
    WITH collect({nodeId: nodeId, score: score, node: node}) AS best
    UNWIND range(0, size(best) - 1) AS rank
    WITH rank, best[rank].nodeId AS nodeId, best[rank].score AS score, best[rank].node AS node
    OPTIONAL MATCH (c:Conversation {id: node._owner})
    OPTIONAL MATCH (m:Message {id: node.message_id})
    OPTIONAL MATCH (a:Attachment {id: nodeId})
    RETURN nodeId, node.kind AS kind, node.message_id AS messageId, node._owner AS owner, score,
           node.start AS start, node.end AS end, ${DESCRIBED_COLUMNS}
    ORDER BY rank`;
}

/** A row of {@link nearestQuery} as a hit. */
export function hitOf(r: Row): VectorHit {
  return {
    nodeId: str(r.nodeId),
    kind: kindOf(r.kind),
    messageId: strOrNull(r.messageId),
    owner: str(r.owner),
    // Neo4j's cosine score is (1 + cosine) / 2.
    similarity: 2 * num(r.score) - 1,
    start: num(r.start),
    end: num(r.end),
  };
}

/**
 * A hit as a search shows it, from a row of {@link DESCRIBED_COLUMNS}; none when the row found
 * no conversation (one deleted since it was embedded).
 */
export function describedHit(hit: VectorHit, r: Row | undefined): SearchHit[] {
  if (typeof r?.conversationId !== 'string') return [];
  const text =
    hit.kind === 'attachment'
      ? str(r.attachmentText)
      : hit.kind === 'title'
        ? str(r.title)
        : str(r.content);
  return [
    {
      conversationId: str(r.conversationId),
      platformConversationId: str(r.platformId),
      title: str(r.title),
      source: str(r.source),
      messageId: str(r.describedMessageId),
      role: str(r.role),
      createdAt: str(r.createdAt),
      snippet: passageSnippet(text, hit),
      score: hit.similarity,
      kind: hit.kind,
      ...(hit.kind === 'attachment'
        ? { attachment: { id: hit.nodeId, name: strOrNull(r.attachmentName) } }
        : {}),
    },
  ];
}
