import type Database from 'better-sqlite3-multiple-ciphers';
import { porterStem } from '../../search/porter-stem.js';
import type { SearchNode } from '../../search/search-terms.js';
import { z } from 'zod';
import { sqliteRows } from './sqlite-rows.js';

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
 * English stop words (search-terms.ts's, and a few more) and the commonest function words of
 * French, German, Spanish, Portuguese and Italian that are written in ASCII.
 */
export const PAIR_WORDS: readonly string[] =
  `a about above after again all also am an and any are as at
  be because been before being below between both but by can could did do does doing down during
  each few for from further had has have having he her here hers him his how i if in into is it its
  itself just me more most my no nor not now of off on once only or other our ours out over own same
  she should so some such than that the their theirs them then there these they this those through
  to too under until up very was we were what when where which while who whom why will with would
  you your yours
  au aux ce ces dans de des du elle en est et il ils je la le les leur mais ne nous on ou par pas
  pour qu que qui sa se son sur un une vous
  auch auf aus bei das dem den der des die ein eine einen er es ich ist mit nicht sich sie und von
  wir zu
  al como con del el es las lo los mas para pero por se su sus un una y
  ao com da das do dos em na nas no nos os um uma
  che di gli il nel non per sono`
    .split(/\s+/)
    .filter((word) => word !== '');

/**
 * The longest token a pair is made of: FTS5's porter leaves longer ones as they are, and
 * cuts any token at 32,768 bytes, where a pair's token would be cut elsewhere.
 */
const LONGEST_TOKEN = 64;

/**
 * What FTS5's porter tokenizer makes of a token unicode61 gave it (lower case): tokens of fewer
 * than 3 or more than 64 bytes are left as they are (fts5PorterCb). Cached: tokens repeat.
 */
function indexedForm(token: string): string {
  if (token.length < 3 || token.length > LONGEST_TOKEN) return token;
  let stem = known.get(token);
  if (stem === undefined) {
    stem = porterStem(token);
    if (known.size > 200_000) known.clear();
    known.set(token, stem);
  }
  return stem;
}
const known = new Map<string, string>();

/** The words of {@link PAIR_WORDS} as message_fts indexes them (porter). */
export const PAIR_STEMS: ReadonlySet<string> = new Set(PAIR_WORDS.map((word) => indexedForm(word)));

/**
 * Characters outside ASCII that unicode61 (SQLite's tables as bundled) reads as separators and
 * never as part of a token or a diacritic: typographic punctuation, arrows, symbols, box
 * drawing, emoji. A text with only these beyond ASCII is cut into tokens here; any other
 * character sends the text to FTS5's own tokenizer ({@link pairsWriter}).
 * `src/stores/sqlite/word-pairs.test.ts` checks each of them against FTS5.
 */
export const SEPARATOR_RANGES = `a0-a9 ab-b1 b4 b6-b8 bb bf d7 f7 2000-2064 206a-206f 20a0-20b9 2190-23f3 2500-26ff 2701-2775 2794-2b4c 3000-3004 3008-3020 3030 3036-3037 303d-303f fe0f ff01-ff0f ff1a-ff20 ff3b-ff40 ff5b-ff65 ffe0-ffe6 ffe8-ffee 1f300-1f320 1f330-1f335 1f337-1f37c 1f380-1f393 1f3a0-1f3c4 1f3c6-1f3ca 1f3e0-1f3f0 1f400-1f43e 1f440 1f442-1f4f7 1f4f9-1f4fc 1f500-1f53d 1f540-1f543 1f550-1f567 1f5fb-1f640 1f645-1f64f 1f680-1f6c5`;

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

const SEPARATORS = new RegExp(
  `[${SEPARATOR_RANGES.split(' ')
    .map((range) =>
      range
        .split('-')
        .map((code) => `\\u{${code}}`)
        .join('-'),
    )
    .join('')}]`,
  'gu',
);

const ASCII_TOKEN = /[a-z0-9]+/g;

/**
 * The pairs of a text tokenized here, as the pairs table's content (a pair once per time it
 * occurs, joined by spaces; '' for none); undefined when the text has a character only FTS5
 * can tokenize.
 */
export function pairsOfText(text: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[^\u0000-\u007f]/.test(text) && /[^\u0000-\u007f]/.test(text.replace(SEPARATORS, ' ')))
    return undefined;
  const tokens = text.toLowerCase().match(ASCII_TOKEN) ?? [];
  return pairsOf(tokens.map(indexedForm));
}

/** A pair's token: two stems joined (`the_and`). */
const pairOf = (a: string, b: string): string | undefined =>
  (PAIR_STEMS.has(a) || PAIR_STEMS.has(b)) && a.length <= LONGEST_TOKEN && b.length <= LONGEST_TOKEN
    ? `${a}_${b}`
    : undefined;

/**
 * A row's pairs: each adjacent pair with a word of the list, once, and for a pair found `c`
 * times, `pair_2` … `pair_c` too (how many times a phrase is in a row, which bm25 weighs, read
 * from lists far shorter than the pair's: see pair-ranking.ts).
 */
function pairsOf(stems: readonly (string | undefined)[]): string {
  const counts = new Map<string, number>();
  for (let i = 0; i + 1 < stems.length; i++) {
    const a = stems[i];
    const b = stems[i + 1];
    const pair = a === undefined || b === undefined ? undefined : pairOf(a, b);
    if (pair !== undefined) counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  const tokens: string[] = [];
  for (const [pair, count] of counts) {
    tokens.push(pair);
    for (let c = 2; c <= count; c++) tokens.push(`${pair}_${c}`);
  }
  return tokens.join(' ');
}

/**
 * The pair token a search is read from instead of message_fts: a phrase (not a prefix) of two
 * words of the list, ASCII; undefined for any other search.
 */
export function phrasePair(root: SearchNode): string | undefined {
  if (root.kind !== 'term' || !root.phrase || root.prefix) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[^\u0000-\u007f]/.test(root.text)) return undefined;
  const [a, b, ...more] = (root.text.toLowerCase().match(ASCII_TOKEN) ?? []).map(indexedForm);
  return a === undefined || b === undefined || more.length > 0 ? undefined : pairOf(a, b);
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
  add(rowid: number | bigint, content: unknown): void;
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
    add: (rowid, content) => {
      const pairs = pairsOfContent(content);
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
