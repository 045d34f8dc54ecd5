import type Database from 'better-sqlite3-multiple-ciphers';
import {
  CONVERSATION_SEGMENTS,
  CONVERSATION_STEMS,
  CONVERSATION_WORDS,
  SEGMENT_BITS,
  segmentDaysKept,
} from './conversation-words.js';
import { MESSAGE_CONVERSATIONS, dayOf } from './message-conversations.js';
import {
  counter,
  matchingRowids,
  numberJoin,
  readsMessage,
  type Params,
  type Source,
  type Tables,
} from './sqlite-matches.js';

/**
 * The conversations holding a match kept by a date bound, counted from each segment's first
 * and last day (issue 46, eighth pass). At a million messages, `the` since a date spent about
 * 100 ms of a 130 ms search visiting each of its 479,189 matches (FTS5 20 ms, the join to each
 * match's number and day the rest), where 28,151 of the 28,561 conversations lie wholly after
 * the bound's day.
 *
 * A segment of a conversation's words (conversation-words.ts) lies wholly on the kept side of
 * the bounds (its first day after `since`'s day, its last day before `until`'s), wholly on the
 * other side, or straddles (a day of it is a bound's own day, or one of its messages has no
 * day). For a search its words answer (a word, a prefix, an OR of them: {@link Tables.grain}),
 * a segment's document matches if and only if one of its texts holds a match, so:
 *
 * - a conversation with a matching segment wholly kept holds a kept match;
 * - a conversation with a kept match holds it in a segment wholly kept or straddling (a
 *   segment wholly on the other side keeps none);
 *
 * and the conversations holding a kept match are those with a matching segment wholly kept,
 * with those found by reading match by match the matches in the rowid range of the straddling
 * segments (and attachment text's matches), the filters checked on each as the other counts
 * check them. Exact with live appends (each append's segment has its own days) and with the
 * stemmed table (a segment matches when its words or its stems do).
 *
 * Undefined when it does not apply: a filter that reads the message other than a date bound (a
 * role), a bound that is not a date, a store whose segments have no days (opened read-only
 * before its upgrade); or does not pay (see {@link SEGMENT_DAYS_WHEN}): then the count reads
 * each match.
 */
export function conversationsByDays(
  db: Database.Database,
  sources: readonly Source[],
  tables: Tables,
  filters: readonly string[],
  params: Params,
  // Over a match's number and day (`k`), as numberedFilters reads them: the conversation's
  // first, then each bound.
  conditions: readonly string[],
  conversation: string | undefined,
): number | undefined {
  const days = boundDays(filters, params);
  if (days === undefined || !tables.grain || !segmentDaysKept(db)) return undefined;
  const joins = sources.map((source) => numberJoin(db, source));
  if (joins.some((join) => join === undefined)) return undefined;
  // Over a segment (`s`): wholly kept, wholly left out (false when a day is null).
  const kept: string[] = [];
  const out: string[] = [];
  if (days.since !== undefined) {
    kept.push(`s.first_day > ${days.since}`);
    out.push(`s.last_day < ${days.since}`);
  }
  if (days.until !== undefined) {
    kept.push(`s.last_day < ${days.until}`);
    out.push(`s.first_day > ${days.until}`);
  }
  const wholly = kept.join(' AND ');
  const straddling = `(${wholly}) IS NOT 1 AND (${out.join(' OR ')}) IS NOT 1`;
  // The conversations with a matching document of a segment wholly kept: a document's
  // conversation with no segment that is not wholly kept, or its segment looked up.
  const whole = `SELECT d.rowid >> ${SEGMENT_BITS} AS n FROM (
      SELECT rowid FROM ${CONVERSATION_WORDS} WHERE ${CONVERSATION_WORDS} MATCH @match
      UNION ALL SELECT rowid FROM ${CONVERSATION_STEMS} WHERE ${CONVERSATION_STEMS} MATCH @stems) d
    WHERE d.rowid >> ${SEGMENT_BITS} NOT IN (SELECT s.n FROM ${CONVERSATION_SEGMENTS} s WHERE (${wholly}) IS NOT 1)
      OR EXISTS (SELECT 1 FROM ${CONVERSATION_SEGMENTS} s WHERE s.n = d.rowid >> ${SEGMENT_BITS}
        AND s.k = (d.rowid & ${(1 << SEGMENT_BITS) - 1}) AND ${wholly})`;
  // Those with a kept match in a straddling segment: message text's matches read in one
  // rowid range holding every straddling segment (each FTS5 reading of a prefix of 4 letters
  // merges its words' doclists first, about 14 ms at a million messages, so not one reading a
  // segment), those of the straddling conversations checked as the other counts check them;
  // attachment text's matches all read, by their message.
  // Most messages in segments straddling or left out: the matches kept are read one by one to
  // count them anyway (no cap reached early), and a count that reads each match is as cheap.
  const share = Number(
    db
      .prepare(
        `SELECT coalesce(1.0 * sum(s.messages) FILTER (WHERE ${wholly}) / sum(s.messages), 0)
         FROM ${CONVERSATION_SEGMENTS} s`,
      )
      .pluck()
      .get(),
  );
  if (share < SEGMENT_DAYS_WHEN.wholly) return undefined;
  const straddle = straddlingRows(
    db
      .prepare(`SELECT s.n, s.lo, s.hi FROM ${CONVERSATION_SEGMENTS} s WHERE ${straddling}`)
      .raw()
      .all(),
  );
  const numbers = [...new Set(straddle.map(([n]) => n))];
  const lo = Math.min(...straddle.map(([, l]) => l));
  const hi = Math.max(...straddle.map(([, , h]) => h));
  // Where the range would hold most matches, the count that reads each match is as cheap.
  const last = Number(db.prepare(`SELECT max(rowid) FROM ${MESSAGE_CONVERSATIONS}`).pluck().get());
  const { straddling: most, range } = SEGMENT_DAYS_WHEN;
  if (numbers.length > most || (numbers.length > 0 && hi - lo > last * range)) return undefined;
  const where = ` AND k.n IN (${numbers.join(', ')})${conditions.map((c) => ` AND ${c}`).join('')}`;
  const read: string[] = [];
  if (numbers.length > 0)
    sources.forEach((source, i) => {
      const { porter, stems } = matchingRowids(source, tables);
      for (const rows of stems === undefined ? [porter] : [porter, stems]) {
        const matching = source === 'message' ? `${rows} AND rowid BETWEEN ${lo} AND ${hi}` : rows;
        read.push(`SELECT k.n AS n FROM (${matching}) t ${joins[i] ?? ''} WHERE 1${where}`);
      }
    });
  const scope = conversation !== undefined ? ` WHERE ${conversation}` : '';
  return counter(
    db,
    params,
  )(`SELECT count(DISTINCT k.n) FROM (${[whole, ...read].join(' UNION ALL ')}) k${scope}`);
}

/**
 * The straddling segments' rows, each its conversation's number and its rowid range, checked
 * without zod: a bound in the middle of a history can straddle a segment of every conversation
 * (28,561 rows at a million messages) before the count falls back (SEGMENT_DAYS_WHEN).
 */
function straddlingRows(rows: unknown[]): [number, number, number][] {
  return rows.map((row, i) => {
    const cells: unknown[] = Array.isArray(row) ? row : [];
    const [n, lo, hi] = cells;
    if (typeof n !== 'number' || typeof lo !== 'number' || typeof hi !== 'number')
      throw new Error(`conversation_word_segments row ${String(i)} is not (n, lo, hi) numbers`);
    return [n, lo, hi];
  });
}

/**
 * When the count from the segments' days is taken (else the count that reads each match, as
 * cheap or cheaper then): at least `wholly` of the messages in segments wholly kept; at most `straddling`
 * conversations straddling a bound's day, their segments within `range` of the rowids.
 * Exactness does not depend on them: tests set them so that every search they draw is
 * counted here.
 */
export const SEGMENT_DAYS_WHEN = {
  wholly: 0.5,
  straddling: 2_000,
  range: 0.5,
};

/** The days of a search's date bounds, when every filter over the message is one. */
function boundDays(
  filters: readonly string[],
  params: Params,
): { since?: number; until?: number } | undefined {
  const days: { since?: number; until?: number } = {};
  for (const filter of filters.filter(readsMessage)) {
    const bound = /^m\.created_at (>=|<) @(since|until)$/.exec(filter);
    const name = bound?.[2] === 'since' ? 'since' : bound?.[2] === 'until' ? 'until' : undefined;
    const day = name === undefined ? null : dayOf(params[name]);
    if (name === undefined || day === null || (bound?.[1] === '>=') !== (name === 'since'))
      return undefined;
    days[name] = day;
  }
  return days.since === undefined && days.until === undefined ? undefined : days;
}
