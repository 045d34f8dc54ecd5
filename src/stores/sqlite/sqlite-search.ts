import type Database from 'better-sqlite3-multiple-ciphers';
import { makeSnippet, snippetTerms } from '../../search/snippet.js';
import { pageBounds } from '../page-bounds.js';
import { searchConditions } from '../query-conditions.js';
import {
  MATCH_END,
  MATCH_START,
  QueryError,
  type SearchHit,
  type SearchQuery,
  type SearchResult,
} from '../store.js';
import { exclusionOf, toFtsQuery } from './fts-query.js';
import { sqliteHint } from './sqlite-hint.js';
import { SQL } from './sqlite-dialect.js';
import { STEMS_TABLE } from './stemmed-full-text.js';
import { MESSAGE_CONVERSATIONS } from './message-conversations.js';
import { exclusionCountable, grainFor, togetherCountable } from './conversation-words.js';
import { scopeFilters } from './conversation-scope.js';
import { countConversations } from './conversation-count.js';
import { countFiltered } from './filtered-count.js';
import { rankPairs } from './pair-ranking.js';
import { PAIRS_TABLE, phrasePair } from './word-pairs.js';
import {
  MATCH_COUNT_CAP,
  MESSAGE_OWNER_INDEX,
  SOURCES,
  countMatches,
  matched,
  numberedFilters,
  tableExists,
  type Params,
  type Source,
  type Tables,
} from './sqlite-matches.js';

interface Ranked {
  source: Source;
  rowid: number;
  score: number;
}
import { z } from 'zod';
import { NullableText, Text, sqliteRow, sqliteRows } from './sqlite-rows.js';

const RankedRow = z.object({ rowid: z.number(), score: z.number() });

/** How many of a word's matches are ranked at first (see {@link searchSqlite}). */
export const RANK_WINDOW = 2_000;

/**
 * The best `want` matches of one source after filters. Scoring costs about a microsecond a
 * match, so a word in hundreds of thousands of messages is ranked among its {@link RANK_WINDOW}
 * most recently indexed matches, widened while filters leave too few.
 */
function rankIn(
  db: Database.Database,
  source: Source,
  tables: Tables,
  matches: number,
  unranked: boolean,
  filters: string[],
  params: Params,
): { rows: Ranked[]; window: number } {
  const want = Number(params.want);
  let window = Math.min(matches, RANK_WINDOW);
  if (source === 'message' && tables.pairs !== undefined && !unranked) {
    const kept = keptBy(db, source, filters, params, tables.kept);
    const found = rankPairs(db, tables, matches, kept, params, window);
    if (found !== undefined)
      return { rows: found.rows.map((row) => ({ ...row, source })), window: found.window };
  }
  // bm25() rather than FTS5's rank column: ORDER BY rank scores every match and ignores the
  // rowid window (measured: 526 ms against 36 ms for "the"). Unranked, the newest message first.
  const statement = db.prepare(
    `SELECT t.rowid AS rowid, ${unranked ? (source === 'message' ? '-t.rowid' : '-m.rowid') : 't.score'} AS score
     FROM (${matched(source, tables, !unranked, '@window')}) t
     ${keptBy(db, source, filters, params, tables.kept)}
     ORDER BY score, t.rowid DESC LIMIT @want`,
  );
  for (;;) {
    // Read newest-indexed first, which FTS5 does cheaply (a `rowid >= ?` range was read from
    // the start of the doclist: 23 ms for "the").
    const rows = sqliteRows(
      RankedRow,
      statement.all({ ...params, window: Math.max(window, 1) }),
      'search match',
    ).map((r) => ({ ...r, source }));
    if (rows.length >= want || window >= matches) return { rows, window };
    window = Math.min(matches, window * 8);
  }
}

/**
 * How a source's matches are joined to what the filters read. A message match is not joined
 * to its row, which holds its text (joining the 2,000 rows of a ranking window to them took
 * 45–65 ms at 300,000 messages, against 5–9 ms for the window alone): to its conversation's
 * number, role and day (see numberedFilters), or in a store opened read-only before those were
 * kept, to the index holding its conversation, role and time.
 */
function keptBy(
  db: Database.Database,
  source: Source,
  filters: readonly string[],
  params: Params,
  kept: string | undefined,
): string {
  const where = filters.length > 0 ? `WHERE ${filters.join(' AND ')}` : '';
  if (source === 'message') {
    const numbered = numberedFilters(db, filters, params, kept);
    if (numbered !== undefined)
      return `JOIN ${MESSAGE_CONVERSATIONS} k ON k.rowid = t.rowid${
        numbered.length > 0 ? ` WHERE ${numbered.join(' AND ')}` : ''
      }`;
    if (tableExists(db, MESSAGE_OWNER_INDEX))
      return `JOIN "Message" m INDEXED BY ${MESSAGE_OWNER_INDEX} ON m.rowid = t.rowid
        JOIN "Conversation" c ON c.id = m.owner ${where}`;
  }
  return `${SOURCES[source].join} JOIN "Conversation" c ON c.id = m.owner ${where}`;
}

const DETAIL = {
  message: `SELECT m.id AS messageId, m.role, m.created_at AS createdAt, m.content,
      c.id AS conversationId, c.conversation_id AS platformConversationId, c.name AS title, c.source,
      NULL AS attachmentId, NULL AS attachmentName
    FROM "Message" m JOIN "Conversation" c ON c.id = m.owner WHERE m.rowid = ?`,
  attachment: `SELECT m.id AS messageId, m.role, m.created_at AS createdAt, a.content,
      c.id AS conversationId, c.conversation_id AS platformConversationId, c.name AS title, c.source,
      a.id AS attachmentId, a.name AS attachmentName
    FROM "Attachment" a JOIN "HAS_ATTACHMENT" e ON e.dst = a.id JOIN "Message" m ON m.id = e.src
    JOIN "Conversation" c ON c.id = m.owner WHERE a.rowid = ? LIMIT 1`,
} as const;

const DetailRow = z.object({
  messageId: Text,
  role: Text,
  createdAt: Text,
  content: NullableText,
  conversationId: Text,
  platformConversationId: Text,
  title: Text,
  source: Text,
  attachmentId: NullableText,
  attachmentName: NullableText,
}) satisfies z.ZodType<
  Omit<SearchHit, 'score' | 'snippet' | 'attachment' | 'why'>,
  z.ZodTypeDef,
  unknown
>;

// Snippets are cut here, not by FTS5: its snippet() needs the MATCH, and FTS5 ignored a
// `rowid = ?` beside a MATCH (it returned every match), so each would rescan the doclist.
function hitsOf(
  db: Database.Database,
  ranked: Ranked[],
  text: string,
  offset: number,
  perConversation = Infinity,
): SearchHit[] {
  const terms = snippetTerms(text);
  const detail = { message: db.prepare(DETAIL.message), attachment: db.prepare(DETAIL.attachment) };
  const snippets = new Map<string, number>();
  return ranked.flatMap(({ source, rowid, score }, i) => {
    const row = sqliteRow(DetailRow, detail[source].get(rowid), 'search hit');
    if (!row) return [];
    const { content, attachmentId, attachmentName, ...rest } = row;
    const made = snippets.get(rest.conversationId) ?? 0;
    snippets.set(rest.conversationId, made + 1);
    return [
      {
        ...rest,
        snippet:
          made < perConversation ? makeSnippet(content ?? '', terms, MATCH_START, MATCH_END) : '',
        score: -score,
        ...(attachmentId !== null
          ? { attachment: { id: attachmentId, name: attachmentName } }
          : {}),
        why: { keyword: { rank: offset + i + 1 } },
      },
    ];
  });
}

/**
 * Each source's matches (up to one past the cap), and the counts read with them: filtered, the
 * matches of message text are counted in the filtered count's pass when it reads every match
 * (see countFiltered); an AND of words reads every match's rowid to count its conversations,
 * and `a -b` may (see countExcludingBySegments), so those are counted first and their matches
 * in the same reading.
 */
function countsOf(
  db: Database.Database,
  sources: readonly Source[],
  tables: Tables,
  where: string[],
  params: Params,
): {
  filtered: ReturnType<typeof countFiltered> | undefined;
  conversations: number | undefined;
  totals: Map<Source, number>;
} {
  const filtered = where.length > 0 ? countFiltered(db, sources, tables, where, params) : undefined;
  const read: { messages?: number } = {};
  const conversations =
    tables.together !== undefined || tables.exclusion !== undefined
      ? countConversations(db, sources, tables, [], params, read)
      : undefined;
  const totals = new Map(
    sources.map((source) => [
      source,
      (source === 'message' ? (filtered?.messages ?? capped(read.messages)) : undefined) ??
        countMatches(db, source, tables, params),
    ]),
  );
  return { filtered, conversations, totals };
}

/** A count of matches as countMatches gives it (up to one past the cap). */
const capped = (count: number | undefined): number | undefined =>
  count === undefined ? undefined : Math.min(count, MATCH_COUNT_CAP + 1);

/**
 * BM25 over message text and attachment text, filtered by source, dates and role, a page at a
 * time (`offset`). Message and attachment hits are merged by their BM25 scores (the same formula
 * over two FTS5 tables, each with its own word statistics). When nothing matches, a hint.
 */
export function searchSqlite(db: Database.Database, query: SearchQuery): SearchResult {
  const fts = toFtsQuery(query.text);
  if (fts === undefined) throw new QueryError('give at least one word to search for');
  const { limit, offset } = pageBounds(query.limit ?? 20, query.offset ?? 0, '--limit');
  const conditions = searchConditions(query, SQL);
  const params: Params = {
    match: fts.match,
    stems: fts.stems,
    want: offset + limit,
    ...conditions.params,
  };
  fts.acronyms.forEach((word, i) => (params[`acronym${i}`] = word));
  // A store opened read-only before it was upgraded may lack the attachment index.
  const sources: Source[] = tableExists(db, 'attachment_fts')
    ? ['message', 'attachment']
    : ['message'];
  const stems = tableExists(db, STEMS_TABLE);
  // A filter over the conversation that keeps every one is no filter (see scopeFilters).
  const scoped = scopeFilters(db, conditions.where, params);
  const where = scoped.filters;
  // A phrase of two very common words: read from their pair's list (word-pairs.ts).
  const pairs = tableExists(db, PAIRS_TABLE) ? phrasePair(fts.parsed.root) : undefined;
  if (pairs !== undefined) params.pairs = `"${pairs}"`;
  const tables: Tables = {
    pairs,
    stems,
    acronyms: fts.acronyms.length,
    grain: grainFor(db, fts.parsed.root, sources, stems, fts.acronyms.length),
    kept: scoped.kept,
    // Only an unfiltered count reads it (countConversations).
    exclusion:
      where.length === 0 &&
      exclusionCountable(db, fts.parsed.root, sources, stems, fts.acronyms.length)
        ? exclusionOf(fts.parsed.root)
        : undefined,
    together:
      where.length === 0 &&
      togetherCountable(db, fts.parsed.root, sources, stems, fts.acronyms.length)
        ? fts.match
        : undefined,
  };
  // `a -b`'s ranking window is scored by `a` alone (see matched).
  if (tables.exclusion !== undefined) {
    params.include = tables.exclusion.include;
    params.includeStems = tables.exclusion.includeStems;
  }
  const { filtered, conversations, totals } = countsOf(db, sources, tables, where, params);
  let matches = 0;
  let ranked = 0;
  const all: Ranked[] = [];
  for (const source of sources) {
    const total = totals.get(source) ?? 0;
    const kept = filtered ? filtered.kept[source] : total;
    matches += Math.min(kept, MATCH_COUNT_CAP + 1);
    if (kept === 0) continue;
    const found = rankIn(db, source, tables, total, fts.unranked, where, params);
    ranked += found.window;
    for (const item of found.rows) all.push(item);
  }
  all.sort((a, b) => a.score - b.score);
  const page = all.slice(offset, offset + limit);
  const result: SearchResult = {
    mode: 'keyword',
    hits: hitsOf(db, page, query.text, offset, query.snippetsPerConversation),
    conversationCount:
      matches === 0
        ? 0
        : (filtered?.conversations ??
          conversations ??
          countConversations(db, sources, tables, [], params)),
    matches: Math.min(matches, MATCH_COUNT_CAP),
    matchesCapped: matches > MATCH_COUNT_CAP,
    ranked: fts.unranked ? 0 : Math.min(ranked, MATCH_COUNT_CAP),
  };
  if (matches === 0) {
    const hint = sqliteHint(db, query.text, fts.parsed.words, sources);
    if (hint !== undefined) result.hint = hint;
  }
  return result;
}
