import type Database from 'better-sqlite3-multiple-ciphers';
import {
  LONGEST_TOKEN,
  PAIR_WORDS,
  SEPARATOR_RANGES,
  pairsOf,
  pairsOfText,
} from '../pairs-of-text.js';
import { z } from 'zod';
import { sqliteRows } from './sqlite-rows.js';

export {
  PAIR_STEMS,
  PAIR_WORDS,
  SEPARATOR_RANGES,
  pairsOfText,
  phrasePair,
} from '../pairs-of-text.js';

/**
 * Adjacent pairs of words one of which is very common, indexed apart (Lucene's CommonGrams,
 * issue 46 eleventh pass): `"the and"` is the token `the_and` of {@link PAIRS_TABLE}, whose list
 * holds the 11,261 messages with the phrase, where FTS5 finds them by comparing the positions of
 * "the" and "and" in the 400,000 messages holding both (about 60 ms a reading at a million
 * messages). A pair is kept when one of its words, as message_fts's porter tokenizer indexes
 * it, is in {@link PAIR_WORDS}: a fixed list, so the index never depends on the data. A phrase
 * of two words, one of them in the list, is counted and ranked from its pair's list
 * (sqlite-matches.ts, pair-ranking.ts); any other search reads message_fts as before. The
 * table's name carries a digest of how pairs are cut ({@link PAIRS_TABLE}).
 */

/**
 * How pairs are cut, in one number: raise it when the cutting changes in a way the digest of
 * {@link PAIR_WORDS} and {@link SEPARATOR_RANGES} does not see (the stemmer, the token rules).
 */
const PAIRS_FORMAT = 1;

/** FNV-1a, 32 bits, as 8 hex digits: a name's digest, nothing secret. */
function digest(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The pairs table, named after how its pairs were cut: a store whose table was made with
 * another word list, other separators or another {@link PAIRS_FORMAT} has none of this name, so
 * its phrases are read from message_fts (the same answers, slower) until its next writable
 * open drops the old table and fills this one ({@link stalePairTables}). Without it, a pair
 * the new list indexes and the old did not would be found in no message.
 */
export const PAIRS_TABLE = `message_pairs_${digest(
  `${PAIRS_FORMAT}\n${LONGEST_TOKEN}\n${PAIR_WORDS.join(' ')}\n${SEPARATOR_RANGES}`,
)}`;

/** Pairs tables made with another cutting than today's (see {@link PAIRS_TABLE}). */
export function stalePairTables(db: Database.Database): string[] {
  return db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'message\\_pairs%' ESCAPE '\\'
       AND sql LIKE 'CREATE VIRTUAL TABLE%' AND name != ?`,
    )
    .pluck()
    .all(PAIRS_TABLE)
    .filter((name): name is string => typeof name === 'string');
}

/**
 * The statement that creates the pairs table (idempotent): contentless (a message's pairs are
 * made again from its text to take them out), without positions or row sizes; its lists alone
 * are read. Kept with its content, the pairs took 494 MB at a million messages.
 */
export function pairsStatement(table = PAIRS_TABLE): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(content, content='', tokenize="unicode61 tokenchars '_'", detail=none, columnsize=0)`;
}

/** Writes and deletes a message's pairs (inside the writer's transaction). */
export interface PairsWriter {
  /**
   * A message written: its pairs, `pairs` when given (the conversion worker's, see notePairs in
   * pairs-of-text.ts, made from the same `content`), else computed here.
   */
  add(rowid: number | bigint, content: unknown, pairs?: string): void;
  /** A message's text is changed or it is deleted: its pairs, made from `content`, taken out. */
  remove(rowid: number | bigint, content: unknown): void;
  /** Before a conversation's messages are deleted. */
  removeOwner(owner: string): void;
}

/** A writer that writes nothing: a store without the pairs table (before its upgrade). */
const NO_PAIRS: PairsWriter = { add: () => {}, remove: () => {}, removeOwner: () => {} };

const TermRow = z.object({ term: z.string(), offset: z.number() });
const TextRow = z.object({ rowid: z.number(), content: z.unknown() });

export function pairsWriter(db: Database.Database): PairsWriter {
  if (pairsMissing(db)) return NO_PAIRS;
  const insert = db.prepare(`INSERT INTO ${PAIRS_TABLE} (rowid, content) VALUES (?, ?)`);
  const remove = db.prepare(
    `INSERT INTO ${PAIRS_TABLE} (${PAIRS_TABLE}, rowid, content) VALUES ('delete', ?, ?)`,
  );
  const texts = db.prepare(`SELECT rowid, content FROM "Message" WHERE owner = ?`);
  const pairsOfContent = messagePairs(db);
  // A row is written only with pairs: FTS5's 'delete' of a row it never had corrupts its totals.
  const drop = (rowid: number | bigint, content: unknown): void => {
    const pairs = pairsOfContent(content);
    if (pairs !== '') remove.run(rowid, pairs);
  };
  return {
    add: (rowid, content, given) => {
      const pairs = given ?? pairsOfContent(content);
      if (pairs !== '') insert.run(rowid, pairs);
    },
    remove: drop,
    removeOwner: (owner) => {
      for (const row of sqliteRows(TextRow, texts.all(owner), 'message'))
        drop(row.rowid, row.content);
    },
  };
}

/**
 * A message's pairs as the pairs table's row holds them ('' for none): cut here, or by FTS5
 * when the text has characters {@link pairsOfText} does not know.
 */
export function messagePairs(db: Database.Database): (content: unknown) => string {
  let tokenize: ((text: string) => string) | undefined;
  return (content) => {
    if (typeof content !== 'string' || content === '') return '';
    const pairs = pairsOfText(content);
    if (pairs !== undefined) return pairs;
    tokenize ??= fts5Pairs(db);
    return tokenize(content);
  };
}

/**
 * The pairs of a text as message_fts's own tokenizer cuts it (a text with characters
 * {@link pairsOfText} does not know): indexed alone in a temporary table and read back through
 * fts5vocab, position by position.
 */
function fts5Pairs(db: Database.Database): (text: string) => string {
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.pair_tokens USING fts5(content, content='', tokenize='porter unicode61 remove_diacritics 2')`,
  );
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.pair_tokens_at USING fts5vocab(temp, pair_tokens, instance)`,
  );
  const put = db.prepare(`INSERT INTO temp.pair_tokens (rowid, content) VALUES (1, ?)`);
  const read = db.prepare(`SELECT term, offset FROM temp.pair_tokens_at`);
  // 'delete-all', not DELETE: FTS5 keeps a deleted row's entries until a merge, and the
  // next reading went through every text read before (4 ms a text after 500 of them).
  const clear = db.prepare(`INSERT INTO temp.pair_tokens (pair_tokens) VALUES ('delete-all')`);
  return (text) => {
    put.run(text);
    const stems: (string | undefined)[] = [];
    for (const { term, offset } of sqliteRows(TermRow, read.all(), 'token')) stems[offset] = term;
    clear.run();
    return pairsOf(stems);
  };
}

/**
 * Fills the pairs table from the messages a store holds (an older store, once): returns how
 * many messages were read.
 */
export function fillPairs(db: Database.Database): number {
  const writer = pairsWriter(db);
  const next = db.prepare(
    `SELECT rowid, content FROM "Message" WHERE rowid > ? ORDER BY rowid LIMIT 10000`,
  );
  let read = 0;
  let after = -1;
  for (;;) {
    const rows = sqliteRows(TextRow, next.all(after), 'message');
    for (const { rowid, content } of rows) writer.add(rowid, content);
    read += rows.length;
    const last = rows.at(-1);
    if (last === undefined) return read;
    after = last.rowid;
  }
}

/** Whether the store file has the pairs table (an older version's has not). */
export function pairsMissing(db: Database.Database): boolean {
  return (
    db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(PAIRS_TABLE) ===
    undefined
  );
}
