import type Database from 'better-sqlite3-multiple-ciphers';
import { QueryError } from '../store.js';
import type { Exclusion } from './fts-query.js';
import { STEMS_TABLE } from './stemmed-full-text.js';
import { PAIRS_TABLE } from './word-pairs.js';
import {
  CONVERSATION_NUMBERS,
  MESSAGE_CONVERSATIONS,
  dayOf,
  messageFactsKept,
} from './message-conversations.js';

/**
 * What the embedded store's keyword search matches, as SQL over its full-text tables, and the
 * counts a search reports: its matches (messages and attachments) and the conversations they
 * are in.
 */

/** Matches are counted up to this many. */
export const MATCH_COUNT_CAP = 50_000;

/** Where a hit is found: message text, or attachment text joined to the message carrying it. */
export const SOURCES = {
  message: {
    table: 'message_fts',
    label: 'Message',
    join: `JOIN "Message" m ON m.rowid = t.rowid`,
  },
  attachment: {
    table: 'attachment_fts',
    label: 'Attachment',
    join: `JOIN "Attachment" a ON a.rowid = t.rowid JOIN "HAS_ATTACHMENT" e ON e.dst = a.id JOIN "Message" m ON m.id = e.src`,
  },
} as const;
export type Source = keyof typeof SOURCES;

export type Params = Record<string, unknown>;

/** What a search reads beyond message_fts and attachment_fts (see {@link matched}). */
export interface Tables {
  /** The store has the stemmed table (a store opened read-only before its upgrade has not). */
  stems: boolean;
  /** How many words in capitals every match must hold as written (`@acronym0`…). */
  acronyms: number;
  /**
   * The conversations holding the matches, without filters, are those whose words match
   * (conversation-words.ts: the store has the tables and the search is one they answer
   * exactly, see grainFor).
   */
  grain: boolean;
  /**
   * The conversations the filters over the conversation keep, as a condition over a match's
   * number (`k.n`), chosen once a search by {@link scopeFilters}; when absent, the set of the
   * numbers they keep.
   */
  kept?: string | undefined;
  /**
   * A search `a -b`: what must match and what must not, to count its conversations from each
   * conversation's words first (see exclusionCountable in conversation-words.ts).
   */
  exclusion?: Exclusion | undefined;
  /**
   * An AND of words without filters: the expression its conversations' words must match, to
   * count them from the segments holding it (see togetherCountable in conversation-words.ts).
   */
  together?: string | undefined;
  /**
   * A phrase of two very common words: message_fts's matches are read from the pairs table's
   * list of the pair (`@pairs`, word-pairs.ts), which holds the same messages.
   */
  pairs?: string | undefined;
}

/** message_fts, or for a phrase the pairs table holds, the pairs table (the same rowids). */
function messageText(tables: Tables): { table: string; match: string } {
  return tables.pairs === undefined
    ? { table: 'message_fts', match: '@match' }
    : { table: PAIRS_TABLE, match: '@pairs' };
}

/**
 * The rows of one source that match, as `(rowid, score)`: for messages, those of message_fts
 * and of message_stems merged (a message found by both keeps its better score), so stemming
 * adds matches and takes none away. `window` keeps each table's most recently indexed matches.
 */
export function matched(source: Source, tables: Tables, scored: boolean, window: string): string {
  const { label } = SOURCES[source];
  // Scored, a phrase the pairs table holds is ranked by pair-ranking.ts.
  const { table, match } =
    source === 'message' && !scored
      ? messageText(tables)
      : { table: SOURCES[source].table, match: '@match' };
  const score = (t: string): string => (scored ? `bm25(${t})` : '0');
  // Porter made "na" of "NAS": a match must hold the capitals as written.
  const held = Array.from(
    { length: tables.acronyms },
    (_, i) => `instr(x.content, @acronym${i}) > 0`,
  );
  const porter =
    held.length === 0
      ? scoredWindow(table, scored, tables.exclusion !== undefined, match, '@include', window)
      : `SELECT * FROM (SELECT f.rowid AS rowid, ${score(table)} AS score FROM ${table} f JOIN "${label}" x ON x.rowid = f.rowid
         WHERE ${table} MATCH ${match} AND ${held.join(' AND ')} ORDER BY f.rowid DESC LIMIT ${window})`;
  if (source !== 'message' || !tables.stems) return porter;
  const stems = scoredWindow(
    STEMS_TABLE,
    scored,
    tables.exclusion !== undefined,
    '@stems',
    '@includeStems',
    window,
  );
  return `SELECT rowid, min(score) AS score FROM (${porter} UNION ALL ${stems}) GROUP BY rowid`;
}

/**
 * A table's newest `window` rows matching `match`, with their bm25 score (or 0). For `a -b`
 * (`byInclude`), scored by `include` (`a` alone) over those rows: a row matching `a NOT b` holds
 * no instance of `b`'s phrases, so their terms add exactly 0.0 to bm25's sum and the score is
 * the same to the bit, while bm25's IDF then reads `a`'s rows only, not `b`'s (issue 46, tenth
 * pass: `levain -the` read all 479,189 rows of `the`, 16 ms).
 */
function scoredWindow(
  table: string,
  scored: boolean,
  byInclude: boolean,
  match: string,
  include: string,
  window: string,
): string {
  const newest = `SELECT rowid FROM ${table} WHERE ${table} MATCH ${match} ORDER BY rowid DESC LIMIT ${window}`;
  if (!scored || !byInclude)
    return `SELECT * FROM (SELECT rowid, ${scored ? `bm25(${table})` : '0'} AS score FROM ${table} WHERE ${table} MATCH ${match} ORDER BY rowid DESC LIMIT ${window})`;
  return `SELECT * FROM (SELECT rowid, bm25(${table}) AS score FROM ${table}
    WHERE ${table} MATCH ${include} AND rowid >= (SELECT min(rowid) FROM (${newest}))
      AND +rowid IN (${newest}))`;
}

/** What SQLite's error says, as the search's; one that is the search's own already (a deadline) as it is. */
export function engineError(error: unknown): QueryError {
  if (error instanceof QueryError) return error;
  return new QueryError(
    `the search could not be run: ${error instanceof Error ? error.message : String(error)}`,
  );
}

export function tableExists(db: Database.Database, table: string): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE name = ?`).get(table) !== undefined;
}

/**
 * The rowids of one source that match, unranked and unwindowed: of message_fts (or
 * attachment_fts) and, for messages, of message_stems apart (a message may be in both).
 */
export function matchingRowids(
  source: Source,
  tables: Tables,
): { porter: string; stems: string | undefined } {
  const { label } = SOURCES[source];
  const { table, match } =
    source === 'message' ? messageText(tables) : { table: SOURCES[source].table, match: '@match' };
  const held = Array.from(
    { length: tables.acronyms },
    (_, i) => `instr(x.content, @acronym${i}) > 0`,
  );
  const porter =
    held.length === 0
      ? `SELECT rowid FROM ${table} WHERE ${table} MATCH ${match}`
      : `SELECT f.rowid AS rowid FROM ${table} f JOIN "${label}" x ON x.rowid = f.rowid WHERE ${table} MATCH ${match} AND ${held.join(' AND ')}`;
  const stems =
    source === 'message' && tables.stems
      ? `SELECT rowid FROM ${STEMS_TABLE} WHERE ${STEMS_TABLE} MATCH @stems`
      : undefined;
  return { porter, stems };
}

export function counter(db: Database.Database, params: Params): (sql: string) => number;
export function counter(db: Database.Database, params: Params, row: true): (sql: string) => unknown;
export function counter(
  db: Database.Database,
  params: Params,
  row = false,
): (sql: string) => unknown {
  return (sql) => {
    try {
      return row ? db.prepare(sql).get(params) : Number(db.prepare(sql).pluck().get(params));
    } catch (error) {
      throw engineError(error);
    }
  };
}

/**
 * Matches of one source, all of them, counted up to the cap (which bounds the ranking window):
 * FTS5 counts alone, each table's rowids as FTS5 reads them; the stemmed table's only where the
 * English one has not matched them (profiled at a million messages: merging both tables'
 * matches by rowid to count them cost 5 to 10 times the counts themselves, see
 * docs/performance.md).
 */
export function countMatches(
  db: Database.Database,
  source: Source,
  tables: Tables,
  params: Params,
): number {
  const cap = MATCH_COUNT_CAP + 1;
  const count = counter(db, params);
  const { porter, stems } = matchingRowids(source, tables);
  const all = count(`SELECT count(*) FROM (${porter} LIMIT ${cap})`);
  if (stems === undefined || all >= cap) return Math.min(all, cap);
  return Math.min(
    cap,
    all + count(`SELECT count(*) FROM (${stems} AND rowid NOT IN (${porter}) LIMIT ${cap})`),
  );
}

/** Reads the message (`m`): its role or time. */
export const readsMessage = (filter: string): boolean => /\bm\./.test(filter);

/**
 * The filters as conditions over a match's row of {@link MESSAGE_CONVERSATIONS} (`k`): those
 * over the conversation (`c`) read once, as the set of numbers of the conversations they keep
 * (an ephemeral index), not once per match; those over the message (its role, its time) read
 * from the role and day kept beside the number, where the message's own time is read (through
 * the owner index) only for a match on a date bound's own day. Undefined when the store has no
 * numbers, or no role and day (a store opened read-only before its upgrade) and a filter reads
 * the message, or a filter is one this does not know: then a search reads the owner index.
 */
export function numberedFilters(
  db: Database.Database,
  filters: readonly string[],
  params: Params,
  kept?: string,
): string[] | undefined {
  if (!tableExists(db, MESSAGE_CONVERSATIONS)) return undefined;
  const conversation = filters.filter((filter) => !readsMessage(filter));
  const message = filters.filter(readsMessage);
  if (message.length > 0 && !messageFactsKept(db)) return undefined;
  const where: string[] = [];
  if (conversation.length > 0)
    where.push(
      kept ??
        `k.n IN (SELECT kn.n FROM ${CONVERSATION_NUMBERS} kn JOIN "Conversation" c ON c.id = kn.owner WHERE ${conversation.join(' AND ')})`,
    );
  const index = tableExists(db, MESSAGE_OWNER_INDEX) ? ` INDEXED BY ${MESSAGE_OWNER_INDEX}` : '';
  const time = `(SELECT x.created_at FROM "Message" x${index} WHERE x.rowid = k.rowid)`;
  for (const filter of message) {
    if (filter === 'm.role = @role') {
      where.push('k.role = @role');
      continue;
    }
    const bound = /^m\.created_at (>=|<) @(since|until)$/.exec(filter);
    const day = bound ? dayOf(params[bound[2] ?? '']) : null;
    if (!bound || day === null) return undefined;
    // Exact: a day after (or before) the bound's day is in (or out); on its day, or with no
    // day (a time that is not an ISO date), the message's time is compared as the filter does.
    const [, op = '>=', name = ''] = bound;
    where.push(
      `(k.day ${op === '>=' ? '>' : '<'} ${day} OR ((k.day IS NULL OR k.day = ${day}) AND ${time} ${op} @${name}))`,
    );
  }
  return where;
}

/**
 * A match's conversation number from {@link MESSAGE_CONVERSATIONS} (a few bytes a message),
 * for a message by its rowid, for an attachment by the message carrying it. Undefined for a
 * store opened read-only before it was upgraded.
 */
export function numberJoin(db: Database.Database, source: Source): string | undefined {
  if (!tableExists(db, MESSAGE_CONVERSATIONS)) return undefined;
  return source === 'message'
    ? `JOIN ${MESSAGE_CONVERSATIONS} k ON k.rowid = t.rowid`
    : `JOIN "Attachment" a ON a.rowid = t.rowid JOIN "HAS_ATTACHMENT" e ON e.dst = a.id
       JOIN "Message" m ON m.id = e.src JOIN ${MESSAGE_CONVERSATIONS} k ON k.rowid = m.rowid`;
}

/**
 * Every match of the sources as `(source, n)`, n its conversation's number, kept by the
 * filters as {@link numberedFilters} reads them. Undefined when it cannot.
 */
export function numberedMatches(
  db: Database.Database,
  sources: readonly Source[],
  tables: Tables,
  filters: readonly string[],
  params: Params,
  // Whether a row found by both message tables is listed once (to count matches), not twice
  // (enough to count conversations, without a temporary B-tree of every match's rowid).
  once: boolean,
): string | undefined {
  const conditions = numberedFilters(db, filters, params, tables.kept);
  if (conditions === undefined) return undefined;
  const condition = conditions.length > 0 ? conditions.join(' AND ') : '1';
  // Once (to count matches): every match listed, whether the filters keep it as `ok`, and a
  // message without a number still listed, so the same pass counts a source's matches.
  const kept = once ? '' : conditions.length > 0 ? ` WHERE ${condition}` : '';
  const ok = once ? `, (${condition}) AS ok` : '';
  const parts: string[] = [];
  for (const source of sources) {
    const numbered = numberJoin(db, source);
    if (numbered === undefined) return undefined;
    const join = once && source === 'message' ? `LEFT ${numbered}` : numbered;
    const { porter, stems } = matchingRowids(source, tables);
    // Once: the stemmed table's rows the English one has not matched (a UNION kept every
    // match's rowid in a B-tree: 50 of 170 ms for "the" since a date at a million messages).
    const rows =
      stems === undefined
        ? [porter]
        : once
          ? [porter, `${stems} AND rowid NOT IN (${porter})`]
          : [porter, stems];
    for (const matching of rows)
      parts.push(`SELECT '${source}' AS source, k.n AS n${ok} FROM (${matching}) t ${join}${kept}`);
  }
  return parts.join(' UNION ALL ');
}

/**
 * The index that finds a message's conversation (and what the filters read of it) by its rowid
 * without reading the message's row, which holds its text.
 */
export const MESSAGE_OWNER_INDEX = 'message_owner_by_rowid';

/** The columns of {@link MESSAGE_OWNER_INDEX}: the rowid, then all a search's filters read. */
export const MESSAGE_OWNER_COLUMNS = 'rowid, owner, role, created_at';

// A message match joined to its message through the index (none for attachments, or a store
// opened read-only before it was upgraded).
export function ownerJoin(db: Database.Database, source: Source): string | undefined {
  return source === 'message' && tableExists(db, MESSAGE_OWNER_INDEX)
    ? `JOIN "Message" m INDEXED BY ${MESSAGE_OWNER_INDEX} ON m.rowid = t.rowid`
    : undefined;
}
