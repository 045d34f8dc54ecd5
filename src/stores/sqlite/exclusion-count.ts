import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import {
  CONVERSATION_SEGMENTS,
  CONVERSATION_WORDS,
  GRAIN_NUMBER,
  SEGMENT_BITS,
} from './conversation-words.js';
import type { Exclusion } from './fts-query.js';
import { MESSAGE_CONVERSATIONS } from './message-conversations.js';
import { sqliteRow } from './sqlite-rows.js';
import { SOURCES, engineError, tableExists, type Params } from './sqlite-matches.js';

/** The numbers read of each segment holding both: its document's rowid, lo, hi, messages. */
const SEGMENT = 4;

/** A grain document's segment index, the low bits of its rowid (see conversation-words.ts). */
const SEGMENT_MASK = (1 << SEGMENT_BITS) - 1;

/**
 * The widest rowid span read through one mask (a byte a message): past it, match by match.
 * 64 MB for a store of 64 million messages.
 */
const MASK_SPAN = 1 << 26;

/** A mask this size or smaller is kept for the next search (allocating it each time cost GC). */
const KEPT_MASK = 1 << 24;
let kept: Buffer | undefined;

// A zeroed mask of `size` bytes.
function maskOf(size: number): Buffer {
  if (size > KEPT_MASK) return Buffer.alloc(size);
  if (kept === undefined || kept.length < size) kept = Buffer.alloc(Math.max(size, 1 << 20));
  const mask = kept.subarray(0, size);
  mask.fill(0);
  return mask;
}

// The first column of a statement's one row (an error as the search's).
function value(db: Database.Database, params: Params, sql: string): unknown {
  try {
    return db.prepare(sql).pluck().get(params);
  } catch (error) {
    throw engineError(error);
  }
}

// A string of integers joined by commas (group_concat's), read without a string per number.
function numbers(list: unknown): Float64Array {
  const text = typeof list === 'string' ? list : '';
  const out = new Float64Array((text.length >> 1) + 1);
  let [count, value, digits] = [0, 0, false];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) {
      if (digits) out[count++] = value;
      [value, digits] = [0, false];
    } else [value, digits] = [value * 10 + (c - 48), true];
  }
  if (digits) out[count++] = value;
  return out.subarray(0, count);
}

// The first index of a sorted list whose value is at least `value`.
function lowerBound(sorted: Float64Array, value: number): number {
  let [lo, hi] = [0, sorted.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] ?? 0) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The conversations holding a match of `a -b` when documents of their words hold both `a` and
 * an exclusion, and message text alone matches (no stems, no attachment text: the caller's
 * check), exactly, without joining every match of `a -b` to its conversation (issue 46, tenth
 * pass: `because -borrow` at a million messages, 330,767 matches, about 0.2 µs each).
 *
 * A match's message lies in a segment of its conversation (its rowid within the segment's
 * range) whose document holds `a`. If that document holds no exclusion, it matches
 * `(a) NOT (b)` and its conversation is counted from the documents; otherwise the document
 * holds both, and the match lies in that segment's rowid range. So the conversations are
 * those of the documents matching `(a) NOT (b)`, and those of the segments holding both with a
 * match in their range that is their own message (see ownSegments). The matches in those
 * ranges are found in one reading of message_fts, each checked against a mask of the ranges (a
 * byte a rowid, about 0.03 µs a match, where a seek in the numbers costs 0.2 µs and FTS5
 * reading one range 20–50 µs, a lookup of its terms in each of its index's segments). Undefined when the store has no
 * numbers (a store opened read-only before its upgrade) or the ranges are too wide for a mask.
 */
export function countExcludingBySegments(
  db: Database.Database,
  exclusion: Exclusion,
  params: Params,
  read: { messages?: number },
): number | undefined {
  if (!tableExists(db, MESSAGE_CONVERSATIONS)) return undefined;
  const segments = segmentsHolding(db, `(${exclusion.include}) AND (${exclusion.exclude})`);
  let [first, last] = [Infinity, 0];
  for (let i = 0; i < segments.length; i += SEGMENT) {
    first = Math.min(first, segments[i + 1] ?? Infinity);
    last = Math.max(last, segments[i + 2] ?? 0);
  }
  if (segments.length === 0 || last - first >= MASK_SPAN || first < 1) return undefined;
  // Byte r of the mask is 1 when rowid `offset + 1 + r` lies in such a segment's range (from
  // rowid 1 unless that wastes most of it: no subtraction a match).
  const offset = first - 1 > (last - first) / 4 ? first - 1 : 0;
  const mask = maskOf(last - offset);
  for (let i = 0; i < segments.length; i += SEGMENT)
    mask.fill(1, (segments[i + 1] ?? 0) - offset - 1, (segments[i + 2] ?? 0) - offset);
  const { table } = SOURCES.message;
  const masked = `substr(@mask, ${offset > 0 ? `rowid - ${offset}` : 'rowid'}, 1) = x'01'`;
  // Ranges spanning most of the rowids: every match is read anyway (`because -borrow`, 2,919 to
  // 999,991 of 1,000,028), so all are, and counted in the same pass (the search's count of
  // matches then need not read them again; `FILTER`, not `CASE`: a `CASE` called group_concat's
  // step for every match, 7 ms more than the capped count it saves). The range as integers in the statement: FTS5 takes a
  // bound given as a number of JavaScript (a double) as no bound at all.
  const wide = (last - first + 1) * 2 >= highestRowid(db);
  const found = sqliteRow(
    Masked,
    rowOf(
      db,
      { ...params, mask },
      wide
        ? `SELECT count(*) AS matches,
             group_concat(rowid) FILTER (WHERE rowid BETWEEN ${first} AND ${last} AND ${masked}) AS inside
           FROM ${table} WHERE ${table} MATCH @match`
        : `SELECT NULL AS matches, group_concat(rowid) AS inside FROM ${table}
           WHERE ${table} MATCH @match AND rowid BETWEEN ${first} AND ${last} AND ${masked}`,
    ),
    'matches in the segments',
  );
  if (found?.matches !== undefined && found.matches !== null) read.messages = found.matches;
  const inside = numbers(found?.inside ?? '');
  const own = ownSegments(db, segments, inside);
  return documentsAndOwn(db, exclusion, segments, own);
}

const Masked = z.object({ matches: z.number().nullable(), inside: z.string().nullable() });

// The highest rowid a message has had (every message has its number's row).
function highestRowid(db: Database.Database): number {
  return Number(value(db, {}, `SELECT coalesce(max(rowid), 0) FROM ${MESSAGE_CONVERSATIONS}`));
}

// The segments whose documents match `match`, as [document rowid, lo, hi, messages] flattened.
function segmentsHolding(db: Database.Database, match: string): Float64Array {
  return numbers(
    value(
      db,
      { match },
      `SELECT coalesce(group_concat(w.rowid || ',' || s.lo || ',' || s.hi || ',' || s.messages), '')
       FROM ${CONVERSATION_WORDS} w JOIN ${CONVERSATION_SEGMENTS} s
         ON s.n = w.rowid >> ${SEGMENT_BITS} AND s.k = w.rowid & ${SEGMENT_MASK}
       WHERE ${CONVERSATION_WORDS} MATCH @match`,
    ),
  );
}

/**
 * The conversations holding a match of an AND of words (`ingress budget`, issue 46, twelfth
 * pass: 54,292 matches at a million messages, each joined to its conversation's number, 17–23 ms
 * of a 45 ms search), when message text alone matches (the caller's check) and a text holding
 * a match makes its conversation's words hold `together` (see togetherCountable): each match's
 * message lies in the rowid range of a segment of its conversation whose document matches
 * `together`. So the conversations are those of such segments with one of their own messages
 * among the matches in their range (see ownSegments), the matches' rowids read once (`rows`,
 * about 0.05 µs each with their parsing, against 0.2–0.3 µs for a seek in the numbers). How
 * many they are is left in `read.messages` (the search's count of matches need not read them
 * again).
 */
export function countTogetherBySegments(
  db: Database.Database,
  together: string,
  rows: string,
  params: Params,
  read: { messages?: number },
): number {
  const segments = segmentsHolding(db, together);
  if (segments.length === 0) return 0;
  const inside = numbers(
    value(db, params, `SELECT coalesce(group_concat(rowid), '') FROM (${rows})`),
  );
  // FTS5 gives them in rowid order; lowerBound needs it, so it is not taken on trust.
  if (inside.some((rowid, i) => i > 0 && rowid < (inside[i - 1] ?? 0))) inside.sort();
  read.messages = inside.length;
  return ownSegments(db, segments, inside).size;
}

const Documents = z.object({ documents: z.number(), later: z.number().nullable() });

/**
 * How many conversations have a document matching `(a) NOT (b)` or are in `own`: when no such
 * document nor any holding both is a later segment (the rowid's low bits), each document is
 * another conversation and none of `own` (each has a document holding both) has one, so they
 * add up; else the documents' numbers are read.
 */
function documentsAndOwn(
  db: Database.Database,
  exclusion: Exclusion,
  segments: Float64Array,
  own: Set<number>,
): number {
  const params = { notBoth: `(${exclusion.include}) NOT (${exclusion.exclude})` };
  const where = `FROM ${CONVERSATION_WORDS} WHERE ${CONVERSATION_WORDS} MATCH @notBoth`;
  let later = false;
  for (let i = 0; i < segments.length; i += SEGMENT)
    later ||= (segments[i] ?? 0) % 2 ** SEGMENT_BITS > 0;
  if (!later) {
    const found = sqliteRow(
      Documents,
      rowOf(
        db,
        params,
        `SELECT count(*) AS documents, sum(rowid & ${SEGMENT_MASK} != 0) AS later ${where}`,
      ),
      'conversation documents',
    );
    if (found !== undefined && (found.later ?? 0) === 0) return found.documents + own.size;
  }
  const documents = numbers(
    value(db, params, `SELECT coalesce(group_concat(${GRAIN_NUMBER}), '') ${where}`),
  );
  // In rowid order, so by conversation number.
  let count = 0;
  documents.forEach((n, i) => {
    if (i === 0 || documents[i - 1] !== n) count++;
  });
  for (const n of own) if (documents[lowerBound(documents, n)] !== n) count++;
  return count;
}

function rowOf(db: Database.Database, params: Params, sql: string): unknown {
  try {
    return db.prepare(sql).get(params);
  } catch (error) {
    throw engineError(error);
  }
}

/**
 * The conversations of the segments `[document, lo, hi, messages]` with a match (`inside`,
 * sorted) in their range that is one of their own messages. A segment with as many messages as
 * rowids in its range holds no other conversation's message: its messages were written in one
 * go (an import's whole conversation, an append's new messages), their rowids past every row's,
 * and a message is taken out only with all of its conversation's segments (a patch that takes
 * one away rewrites the conversation whole), so no rowid of the range was given out again. A
 * merged segment (across other conversations' appends) has fewer messages than rowids: its
 * first match is looked up, then every other of its matches when that one was another
 * conversation's.
 */
function ownSegments(
  db: Database.Database,
  segments: Float64Array,
  inside: Float64Array,
): Set<number> {
  const own = new Set<number>();
  const lookup = (asked: [rowid: number, n: number][]): void => {
    if (asked.length === 0) return;
    const found = numbers(
      value(
        db,
        { rowids: JSON.stringify(asked.map(([rowid]) => rowid)) },
        `SELECT coalesce(group_concat(k.rowid || ',' || k.n), '') FROM json_each(@rowids) j
         JOIN ${MESSAGE_CONVERSATIONS} k ON k.rowid = j.value`,
      ),
    );
    const of = new Map<number, number>();
    for (let i = 0; i < found.length; i += 2) of.set(found[i] ?? 0, found[i + 1] ?? 0);
    for (const [rowid, n] of asked) if (of.get(rowid) === n) own.add(n);
  };
  const firsts: [number, number][] = [];
  const spans: [n: number, from: number, to: number][] = [];
  for (let i = 0; i < segments.length; i += SEGMENT) {
    const [document = 0, lo = 0, hi = 0, messages = 0] = segments.subarray(i, i + SEGMENT);
    const n = Math.floor(document / 2 ** SEGMENT_BITS);
    const from = lowerBound(inside, lo);
    const to = lowerBound(inside, hi + 1);
    if (from >= to) continue;
    if (messages === hi - lo + 1) own.add(n);
    else {
      firsts.push([inside[from] ?? 0, n]);
      spans.push([n, from + 1, to]);
    }
  }
  lookup(firsts);
  const rest: [number, number][] = [];
  for (const [n, from, to] of spans)
    if (!own.has(n)) for (let j = from; j < to; j++) rest.push([inside[j] ?? 0, n]);
  lookup(rest);
  return own;
}
