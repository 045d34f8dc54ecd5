import neo4j from 'neo4j-driver';
import {
  nearerSuggestion,
  languageSurfaceForm,
  nearestLanguageTerms,
  rewriteSearch,
  surfaceForm,
} from '../../search/did-you-mean.js';
import { queryStems, stemWord } from '../../search/stemming.js';
import { requiredAcronyms, searchTerms } from '../../search/search-terms.js';
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
import { ENGLISH_STOP_WORDS, STEMS_INDEX, TEXT_INDEX } from './neo4j-full-text.js';
import { fuzzyLuceneQuery, toLuceneQuery, toLuceneStemsQuery } from './lucene-query.js';
import { STEMS_LANGUAGES } from '../batch-language.js';

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

/**
 * The full-text matches as `node, score`: of the English index (`$q`) and, when the store has
 * it, of the stemmed index (`$qs`), a node found by both keeping its better score, so stemming
 * adds matches and takes none away (as on the embedded store).
 */
function found(stems: boolean, windowed = true): string {
  // Without a limit the index streams every match (a limit sizes Lucene's queue of the best).
  const options = windowed ? ', {limit: $window}' : '';
  const text = `CALL db.index.fulltext.queryNodes('${TEXT_INDEX}', $q${options}) YIELD node, score`;
  if (!stems) return text;
  return `CALL {
    ${text} RETURN node, score
    UNION ALL
    CALL db.index.fulltext.queryNodes('${STEMS_INDEX}', $qs${options}) YIELD node, score RETURN node, score
  }
  WITH node, max(score) AS score`;
}

/**
 * The full-text matches counted: with the stemmed index, the nodes of both indexes once each
 * (a UNION of nodes: a count needs no scores, so no grouping by node to keep the better one).
 */
function countFound(stems: boolean): string {
  const text = `CALL db.index.fulltext.queryNodes('${TEXT_INDEX}', $q, {limit: $window}) YIELD node`;
  if (!stems) return `${text} RETURN count(node) AS n`;
  return `CALL {
    ${text} RETURN node
    UNION
    CALL db.index.fulltext.queryNodes('${STEMS_INDEX}', $qs, {limit: $window}) YIELD node RETURN node
  }
  RETURN count(node) AS n`;
}

// A hit in an attachment stands for the message carrying it: `m` is that message, `node` what matched.
const matched = (stems: boolean, windowed = true): string => `${found(stems, windowed)}
  OPTIONAL MATCH (carrier:Message)-[:HAS_ATTACHMENT]->(node)
  WITH node, score, coalesce(carrier, node) AS m
  MATCH (c:Conversation {id: m._owner})`;

function where(filters: string[]): string {
  return filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : '';
}

/** The page of matches, best first, of the best `$window` each index gives. */
const rankedQuery = (
  stems: boolean,
  filters: string[],
): string => `${matched(stems)} ${where(filters)}
    RETURN m.id AS messageId, m.role AS role, m.created_at AS createdAt, coalesce(node.content, '') AS content,
           c.id AS conversationId, c.conversation_id AS platformConversationId, c.name AS title,
           c.source AS source, score,
           CASE WHEN node:Attachment THEN node.id END AS attachmentId,
           CASE WHEN node:Attachment THEN node.name END AS attachmentName
    ORDER BY score DESC, m.id, node.id SKIP $offset LIMIT $limit`;

/** Matches before filters (which bound the window) and after them, counted up to the cap. */
async function countMatches(
  read: Read,
  stems: boolean,
  filters: string[],
  params: Record<string, unknown>,
): Promise<{ all: number; kept: number }> {
  const cap = neo4j.int(MATCH_COUNT_CAP + 1);
  const [counted] = await read(countFound(stems), {
    ...params,
    window: cap,
  });
  const all = Number(counted?.n ?? 0);
  if (filters.length === 0 || all === 0) return { all, kept: all };
  const [kept] = await read(`${matched(stems)} ${where(filters)} RETURN count(*) AS n`, {
    ...params,
    window: cap,
  });
  return { all, kept: Number(kept?.n ?? 0) };
}

/**
 * Ranked by Neo4j's full-text indexes (Lucene BM25: one English index over message and
 * attachment text, one over messages stemmed in their other language when `stems`) over every
 * match; filters are applied to the best {@link SEARCH_WINDOW} matches, widened while they leave
 * too few hits for the page asked for. When nothing matches, a hint.
 */
export async function searchNeo4j(
  read: Read,
  query: SearchQuery,
  stems = true,
): Promise<SearchResult> {
  const lucene = toLuceneQuery(query.text);
  const parsed = searchTerms(query.text);
  if (lucene === undefined || parsed === undefined)
    throw new QueryError('give at least one word to search for');
  const { limit, offset } = pageBounds(query.limit ?? 20, query.offset ?? 0, '--limit');
  const none: SearchResult = {
    mode: 'keyword',
    hits: [],
    conversationCount: 0,
    matches: 0,
    matchesCapped: false,
    ranked: 0,
  };
  // The English analyzer indexes no stop words: a search of those alone can match nothing.
  if (parsed.unranked && parsed.words.every((w) => ENGLISH_STOP_WORDS.has(w.toLowerCase())))
    return none;
  const stemmed = stems ? toLuceneStemsQuery(query.text) : undefined;
  const conditions = searchConditions(query, CYPHER);
  // The English analyzer makes "na" of "NAS": a match must hold the capitals as written.
  const acronyms = requiredAcronyms(parsed.root);
  const filters = [
    ...conditions.where,
    ...acronyms.map((_, i) => `coalesce(node.content, '') CONTAINS $acronym${i}`),
  ];
  const params: Record<string, unknown> = {
    ...Object.fromEntries(acronyms.map((word, i) => [`acronym${i}`, word])),
    q: lucene,
    qs: stemmed ?? lucene,
    offset: neo4j.int(offset),
    limit: neo4j.int(limit),
    ...conditions.params,
  };
  // The first page is read while the matches are counted (two transactions at once); a window
  // of the page's own size would do without filters, but then tied scores would be cut where
  // Lucene cuts them, not by id, and pages would disagree.
  let window = SEARCH_WINDOW;
  const [{ all, kept }, first, conversations] = await Promise.all([
    countMatches(read, stems, filters, params),
    read(rankedQuery(stems, filters), { ...params, window: neo4j.int(window) }),
    // Every match's conversation, counted once: exact, whatever the page.
    read(`${matched(stems, false)} ${where(filters)} RETURN count(DISTINCT c.id) AS n`, params),
  ]);
  if (kept === 0) {
    const hint = await neo4jHint(read, query.text, parsed.unranked ? [] : parsed.words, stems);
    return hint === undefined ? none : { ...none, hint };
  }
  let rows = first;
  while (rows.length < limit && window < all) {
    window = Math.min(all, window * 8);
    rows = await read(rankedQuery(stems, filters), { ...params, window: neo4j.int(window) });
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
    conversationCount: Number(conversations[0]?.n ?? 0),
    matches: Math.min(kept, MATCH_COUNT_CAP),
    matchesCapped: all > MATCH_COUNT_CAP,
    ranked: Math.min(all, MATCH_COUNT_CAP),
  };
}

/**
 * The search with each word found nowhere replaced by the nearest word that is: Lucene's fuzzy
 * query (`word~`, up to two edits) finds texts, and the nearest word in them is the suggestion;
 * with the stemmed index, the same over the word's stems in the other languages, whose nearest
 * stems give the word as written (see nearestLanguageTerms), the nearer of the two winning.
 */
async function neo4jHint(
  read: Read,
  text: string,
  words: string[],
  stems: boolean,
): Promise<string | undefined> {
  const replacements = new Map<string, string>();
  const first = (index: string, q: string, limit: number): Promise<Row[]> =>
    read(
      `CALL db.index.fulltext.queryNodes('${index}', $q, {limit: $limit}) YIELD node RETURN coalesce(node.content, '') AS content`,
      { q, limit: neo4j.int(limit) },
    );
  for (const word of words) {
    if (!/^[\p{L}\p{N}]+$/u.test(word) || word.length < 3) continue;
    if (ENGLISH_STOP_WORDS.has(word.toLowerCase())) continue;
    if ((await first(TEXT_INDEX, toLuceneQuery(word) ?? '', 1)).length > 0) continue;
    if (stems && (await first(STEMS_INDEX, toLuceneStemsQuery(word) ?? '', 1)).length > 0) continue;
    const texts = (await first(TEXT_INDEX, fuzzyLuceneQuery(word), 5)).map((r) =>
      String(r.content),
    );
    const english = surfaceForm(word, texts);
    const other = stems
      ? await stemmedSuggestion(word, (q) => first(STEMS_INDEX, q, 5))
      : undefined;
    const suggestion = nearerSuggestion(word, english, other);
    if (suggestion !== undefined) replacements.set(word.toLowerCase(), suggestion);
  }
  if (replacements.size === 0) return undefined;
  // Offered only when it finds something (as on SQLite): a question in a language the history
  // does not hold is not "corrected" word by word into another search that finds nothing.
  const rewritten = rewriteSearch(text, replacements);
  const finds = async (index: string, q: string | undefined): Promise<boolean> =>
    q !== undefined && (await first(index, q, 1)).length > 0;
  return (await finds(TEXT_INDEX, toLuceneQuery(rewritten))) ||
    (stems && (await finds(STEMS_INDEX, toLuceneStemsQuery(rewritten))))
    ? rewritten
    : undefined;
}

/** The nearest word of the other languages, from texts near the word's stems (fuzzily). */
async function stemmedSuggestion(
  word: string,
  texts: (q: string) => Promise<Row[]>,
): Promise<string | undefined> {
  const fuzzy = queryStems(word, STEMS_LANGUAGES)
    .map((stem) => fuzzyLuceneQuery(stem))
    .join(' OR ');
  const found = (await texts(fuzzy)).map((r) => String(r.content));
  // The stems these texts hold, as the vocabulary the embedded store reads from its table.
  const vocabulary = new Map<string, number>();
  for (const content of found)
    for (const [token] of content.matchAll(/[\p{L}\p{N}]+/gu))
      for (const language of STEMS_LANGUAGES) {
        const stem = stemWord(token, language);
        vocabulary.set(stem, (vocabulary.get(stem) ?? 0) + 1);
      }
  const candidates = [...vocabulary].map(([term, count]) => ({ term, count }));
  for (const term of nearestLanguageTerms(word, candidates, STEMS_LANGUAGES).slice(0, 3)) {
    const surface = languageSurfaceForm(word, found, term, STEMS_LANGUAGES);
    if (surface !== undefined) return surface;
  }
  return undefined;
}
