import neo4j from 'neo4j-driver';
import { rewriteSearch, surfaceForm } from '../../search/did-you-mean.js';
import { searchTerms } from '../../search/search-terms.js';
import { makeSnippet, snippetTerms } from '../../search/snippet.js';
import { pageBounds } from '../page-bounds.js';
import { searchConditions, type Dialect } from '../query-conditions.js';
import {
  MATCH_END,
  MATCH_START,
  QueryError,
  type Row,
  type SearchHit,
  type SearchQuery,
  type SearchResult,
} from '../store.js';
import { ENGLISH_STOP_WORDS, TEXT_INDEX } from './neo4j-full-text.js';
import { fuzzyLuceneQuery, toLuceneQuery } from './lucene-query.js';

/** Runs a read query (the store's read transaction). */
export type Read = (query: string, params?: Record<string, unknown>) => Promise<Row[]>;

/** Matches are counted up to this many (as on the embedded store). */
const MATCH_COUNT_CAP = 50_000;
/** Full-text matches read at first before filters; widened while filters leave too few. */
const SEARCH_WINDOW = 2_000;

/** Filters in Cypher: `$name` parameters, true, a lower-cased CONTAINS for a title. */
export const CYPHER: Dialect = {
  param: (name) => `$${name}`,
  true: 'true',
  titleContains: {
    condition: 'toLower(c.name) CONTAINS $title',
    value: (title) => title.toLowerCase(),
  },
  projectContains:
    'EXISTS { MATCH (p:Project)-[:HAS_SESSION]->(c) WHERE toLower(p.name) CONTAINS $project OR toLower(p.path) CONTAINS $project OR toLower(p.project_id) CONTAINS $project }',
  lower: (expression) => `toLower(${expression})`,
};

// A hit in an attachment stands for the message carrying it: `m` is that message, `node` what matched.
const MATCHED = `CALL db.index.fulltext.queryNodes('${TEXT_INDEX}', $q, {limit: $window}) YIELD node, score
  OPTIONAL MATCH (carrier:Message)-[:HAS_ATTACHMENT]->(node)
  WITH node, score, coalesce(carrier, node) AS m
  MATCH (c:Conversation {id: m._owner})`;

function where(filters: string[]): string {
  return filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : '';
}

/** Matches before filters (which bound the window) and after them, counted up to the cap. */
async function countMatches(
  read: Read,
  q: string,
  filters: string[],
  params: Record<string, unknown>,
): Promise<{ all: number; kept: number }> {
  const cap = neo4j.int(MATCH_COUNT_CAP + 1);
  const [counted] = await read(
    `CALL db.index.fulltext.queryNodes('${TEXT_INDEX}', $q, {limit: $window}) YIELD node RETURN count(node) AS n`,
    { q, window: cap },
  );
  const all = Number(counted?.n ?? 0);
  if (filters.length === 0 || all === 0) return { all, kept: all };
  const [kept] = await read(`${MATCHED} ${where(filters)} RETURN count(*) AS n`, {
    ...params,
    window: cap,
  });
  return { all, kept: Number(kept?.n ?? 0) };
}

/**
 * Ranked by Neo4j's full-text index (Lucene BM25, one index over message and attachment text)
 * over every match; filters are applied to the best {@link SEARCH_WINDOW} matches, widened while
 * they leave too few hits for the page asked for. When nothing matches, a hint.
 */
export async function searchNeo4j(read: Read, query: SearchQuery): Promise<SearchResult> {
  const lucene = toLuceneQuery(query.text);
  const parsed = searchTerms(query.text);
  if (lucene === undefined || parsed === undefined)
    throw new QueryError('give at least one word to search for');
  const { limit, offset } = pageBounds(query.limit ?? 20, query.offset ?? 0, '--limit');
  const none: SearchResult = {
    mode: 'keyword',
    hits: [],
    matches: 0,
    matchesCapped: false,
    ranked: 0,
  };
  // The English analyzer indexes no stop words: a search of those alone can match nothing.
  if (parsed.unranked && parsed.words.every((w) => ENGLISH_STOP_WORDS.has(w.toLowerCase())))
    return none;
  const conditions = searchConditions(query, CYPHER);
  const params: Record<string, unknown> = {
    q: lucene,
    offset: neo4j.int(offset),
    limit: neo4j.int(limit),
    ...conditions.params,
  };
  const { all, kept } = await countMatches(read, lucene, conditions.where, params);
  if (kept === 0) {
    const hint = await neo4jHint(read, query.text, parsed.unranked ? [] : parsed.words);
    return hint === undefined ? none : { ...none, hint };
  }
  const ranked = `${MATCHED} ${where(conditions.where)}
    RETURN m.id AS messageId, m.role AS role, m.created_at AS createdAt, coalesce(node.content, '') AS content,
           c.id AS conversationId, c.conversation_id AS platformConversationId, c.name AS title,
           c.source AS source, score,
           CASE WHEN node:Attachment THEN node.id END AS attachmentId,
           CASE WHEN node:Attachment THEN node.name END AS attachmentName
    ORDER BY score DESC, m.id, node.id SKIP $offset LIMIT $limit`;
  let window = Math.min(Math.max(all, 1), SEARCH_WINDOW);
  let rows: Row[];
  for (;;) {
    rows = await read(ranked, { ...params, window: neo4j.int(window) });
    if (rows.length >= limit || window >= all) break;
    window = Math.min(all, window * 8);
  }
  const terms = snippetTerms(query.text);
  const hits = rows.map((row, i): SearchHit => {
    const { content, attachmentId, attachmentName, ...rest } = row as Omit<
      SearchHit,
      'snippet' | 'attachment' | 'why'
    > & { content: string; attachmentId: string | null; attachmentName: string | null };
    return {
      ...rest,
      snippet: makeSnippet(content, terms, MATCH_START, MATCH_END),
      ...(attachmentId !== null ? { attachment: { id: attachmentId, name: attachmentName } } : {}),
      why: { keyword: { rank: offset + i + 1 } },
    };
  });
  return {
    mode: 'keyword',
    hits,
    matches: Math.min(kept, MATCH_COUNT_CAP),
    matchesCapped: all > MATCH_COUNT_CAP,
    ranked: Math.min(all, MATCH_COUNT_CAP),
  };
}

/**
 * The search with each word found nowhere replaced by the nearest word that is: Lucene's fuzzy
 * query (`word~`, up to two edits) finds texts, and the nearest word in them is the suggestion.
 */
async function neo4jHint(read: Read, text: string, words: string[]): Promise<string | undefined> {
  const replacements = new Map<string, string>();
  const first = (q: string, limit: number): Promise<Row[]> =>
    read(
      `CALL db.index.fulltext.queryNodes('${TEXT_INDEX}', $q, {limit: $limit}) YIELD node RETURN coalesce(node.content, '') AS content`,
      { q, limit: neo4j.int(limit) },
    );
  for (const word of words) {
    if (!/^[\p{L}\p{N}]+$/u.test(word) || word.length < 3) continue;
    if (ENGLISH_STOP_WORDS.has(word.toLowerCase())) continue;
    if ((await first(toLuceneQuery(word) ?? '', 1)).length > 0) continue;
    const texts = (await first(fuzzyLuceneQuery(word), 5)).map((r) => String(r.content));
    const suggestion = surfaceForm(word, texts);
    if (suggestion !== undefined) replacements.set(word.toLowerCase(), suggestion);
  }
  return replacements.size > 0 ? rewriteSearch(text, replacements) : undefined;
}
