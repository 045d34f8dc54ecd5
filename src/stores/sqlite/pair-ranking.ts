import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import { STEMS_TABLE } from './stemmed-full-text.js';
import { counter, type Params, type Tables } from './sqlite-matches.js';
import { sqliteRows } from './sqlite-rows.js';
import { PAIRS_TABLE } from './word-pairs.js';

/**
 * The ranking of a phrase the pairs table holds (word-pairs.ts), with the scores FTS5's
 * `bm25(message_fts)` gives, bit for bit, without FTS5 reading the phrase. bm25 asks FTS5 for
 * the number of rows holding the phrase once per statement (`xQueryPhrase`: about 60 ms at a
 * million messages for `"the and"`, read from the positions of both words); here every number
 * of the formula is read apart and the formula is FTS5's (fts5Bm25Function, SQLite 3.53):
 *
 *   score = -1 × IDF × (f × (k1 + 1)) / (f + k1 × (1 − b + b × D / avgdl)), k1 = 1.2, b = 0.75
 *   IDF = ln((N − n + 0.5) / (n + 0.5)), at least 1e-6
 *
 * N and the table's tokens (for avgdl) from message_fts's averages record (`_data`, id 1), as
 * FTS5's xRowCount and xColumnTotalSize read them; n, the rows holding the phrase, counted in
 * the pairs table; f, the phrase's instances in the row, the times its pair is in the row's
 * pairs; D, the row's tokens, from `message_fts_docsize` as xColumnSize reads it. The logarithm
 * is SQLite's `ln()`, the C library's `log()` that FTS5 calls; the rest is the same double
 * arithmetic in the same order.
 */

const K1 = 1.2;
const B = 0.75;

/** An FTS5 varint (SQLite's: big-endian, 7 bits a byte, the ninth byte whole) at `at`. */
function varint(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  for (let i = 0; i < 8; i++) {
    const byte = bytes[at + i] ?? 0;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return { value, next: at + i + 1 };
  }
  return { value: value * 256 + (bytes[at + 8] ?? 0), next: at + 9 };
}

const Averages = z.object({ block: z.instanceof(Uint8Array) });

/** What bm25 reads once a statement: the IDF of the phrase and the average row length. */
function statistics(
  db: Database.Database,
  params: Params,
): { idf: number; avgdl: number } | undefined {
  const row = Averages.safeParse(
    db.prepare(`SELECT block FROM message_fts_data WHERE id = 1`).get(),
  );
  if (!row.success) return undefined;
  const rows = varint(row.data.block, 0);
  const tokens = varint(row.data.block, rows.next).value;
  const nRow = rows.value;
  if (nRow <= 0) return undefined;
  const hits = counter(
    db,
    params,
  )(`SELECT count(*) FROM ${PAIRS_TABLE} WHERE ${PAIRS_TABLE} MATCH @pairs`);
  const quotient = (nRow - hits + 0.5) / (hits + 0.5);
  let idf = Number(db.prepare(`SELECT ln(?)`).pluck().get(quotient));
  if (!(idf > 0)) idf = 1e-6;
  return { idf, avgdl: tokens / nRow };
}

/**
 * The window's rows as `(rowid, size)`, read as arrays: zod's parse of each of 2,000 objects
 * was a tenth of a search.
 */
function windowRows(rows: unknown[]): { rowid: number; size: Uint8Array | null }[] {
  return rows.map((row) => {
    const cells: unknown[] = Array.isArray(row) ? row : [];
    const [rowid, size] = cells;
    if (typeof rowid !== 'number' || !(size === null || size instanceof Uint8Array))
      throw new Error(`a search match read as ${String(row)}`);
    return { rowid, size };
  });
}
const StemRow = z.object({ rowid: z.number(), score: z.number() });

/**
 * The best `want` matches of message text for a phrase the pairs table holds (`tables.pairs`),
 * in {@link RANK_WINDOW}'s newest matches widened while too few are kept, as rankIn reads
 * message_fts: the same rows, scores and order. `kept` joins a match `t` to what the filters
 * read (sqlite-search.ts's keptBy).
 */
export function rankPairs(
  db: Database.Database,
  tables: Tables,
  matches: number,
  kept: string,
  params: Params,
  firstWindow: number,
): { rows: { rowid: number; score: number }[]; window: number } | undefined {
  const pair = tables.pairs;
  const stats = pair === undefined ? undefined : statistics(db, params);
  if (pair === undefined || stats === undefined) return undefined;
  const held = Array.from(
    { length: tables.acronyms },
    (_, i) => ` AND instr(x.content, @acronym${i}) > 0`,
  ).join('');
  const inWindow =
    held === ''
      ? `SELECT rowid FROM ${PAIRS_TABLE} WHERE ${PAIRS_TABLE} MATCH @pairs ORDER BY rowid DESC LIMIT @window`
      : `SELECT f.rowid AS rowid FROM ${PAIRS_TABLE} f JOIN "Message" x ON x.rowid = f.rowid
         WHERE ${PAIRS_TABLE} MATCH @pairs${held} ORDER BY f.rowid DESC LIMIT @window`;
  const porter = db.prepare(
    `SELECT t.rowid AS rowid, d.sz AS size FROM (${inWindow}) t
     LEFT JOIN message_fts_docsize d ON d.id = t.rowid ${kept}`,
  );
  // The rows holding the pair at least c times, from the lowest rowid of those ranked.
  const times = db
    .prepare(
      `SELECT rowid FROM ${PAIRS_TABLE} WHERE ${PAIRS_TABLE} MATCH @times AND rowid >= @lowest`,
    )
    .pluck();
  const stems = tables.stems
    ? db.prepare(
        `SELECT t.rowid AS rowid, t.score AS score FROM (SELECT rowid, bm25(${STEMS_TABLE}) AS score
         FROM ${STEMS_TABLE} WHERE ${STEMS_TABLE} MATCH @stems ORDER BY rowid DESC LIMIT @window) t ${kept}`,
      )
    : undefined;
  const want = Number(params.want);
  let window = firstWindow;
  for (;;) {
    const at = { ...params, window: Math.max(window, 1) };
    const best = new Map<number, number>();
    const found = windowRows(porter.raw(true).all(at));
    const frequency = frequencies(
      found.map((row) => row.rowid),
      (c, lowest) => times.all({ times: `"${pair}_${c}"`, lowest }),
    );
    for (const row of found) {
      const f = frequency.get(row.rowid) ?? 1.0;
      const D = row.size === null ? 0 : varint(row.size, 0).value;
      let score = 0.0;
      score += stats.idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * D) / stats.avgdl)));
      best.set(row.rowid, -1.0 * score);
    }
    for (const row of stems ? sqliteRows(StemRow, stems.all(at), 'search match') : []) {
      const score = best.get(row.rowid);
      if (score === undefined || row.score < score) best.set(row.rowid, row.score);
    }
    const rows = [...best]
      .map(([rowid, score]) => ({ rowid, score }))
      .sort((a, b) => a.score - b.score || b.rowid - a.rowid)
      .slice(0, want);
    if (rows.length >= want || window >= matches) return { rows, window };
    window = Math.min(matches, window * 8);
  }
}

/**
 * How many times each row holds the phrase (bm25's f): 1, and one more for each `pair_c` list
 * (c = 2, 3 …) holding it; a row with the pair c times is in every list up to c, so the lists
 * are read until none holds a row (word-pairs.ts).
 */
function frequencies(
  rowids: readonly number[],
  holding: (c: number, lowest: number) => unknown[],
): Map<number, number> {
  const frequency = new Map(rowids.map((rowid) => [rowid, 1.0]));
  if (rowids.length === 0) return frequency;
  const lowest = rowids.reduce((a, b) => Math.min(a, b));
  for (let c = 2; ; c++) {
    let more = false;
    for (const rowid of holding(c, lowest)) {
      const f = typeof rowid === 'number' ? frequency.get(rowid) : undefined;
      if (f === undefined || typeof rowid !== 'number') continue;
      frequency.set(rowid, f + 1.0);
      more = true;
    }
    if (!more) return frequency;
  }
}
