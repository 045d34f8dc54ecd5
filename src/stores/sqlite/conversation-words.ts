import type Database from 'better-sqlite3-multiple-ciphers';
import type { SearchNode } from '../../search/search-terms.js';
import { TOKENIZER } from './full-text.js';
import { STEMS_TOKENIZER } from './stemmed-full-text.js';
import { tableNames } from './sqlite-rows.js';
import { MESSAGE_CONVERSATIONS } from './message-conversations.js';

/**
 * The words of each conversation, by conversation number (issue 46, fifth pass): what
 * an exact count of the conversations holding a word, a prefix or an OR of them reads, 28,561
 * documents at a million messages instead of every match (a word in 600,000 messages took
 * 110–130 ms of CPU to count through each match's number, about 0.2 µs a match).
 *
 * Exact because such a query matches a conversation's words if and only if it matches one of
 * its texts: {@link CONVERSATION_WORDS} holds, under message_fts's tokenizer, every message's
 * text and every text of an attachment those messages carry (what message_fts and
 * attachment_fts find, counted in the carrying message's conversation);
 * {@link CONVERSATION_STEMS} holds the messages' rows of message_stems, under its tokenizer. A
 * phrase, AND, NOT or a word of several tokens could match across two texts, and a filter reads
 * the message: those keep counting each match (see {@link grainCountable}).
 *
 * Contentless, `detail=none` (which documents, no positions): a few bytes a conversation a word.
 * A conversation may have several documents (issue 46, sixth pass), one a segment of its
 * messages (see {@link CONVERSATION_SEGMENTS}): the document's rowid is the conversation's
 * number shifted by {@link SEGMENT_BITS} plus the segment's index, so a count takes the
 * distinct {@link GRAIN_NUMBER}s. An import writes one segment a conversation from the texts it
 * holds; a live append adds a segment of the new messages alone, so a watched session's
 * append no longer reads and tokenizes the whole conversation again.
 */
export const CONVERSATION_WORDS = 'conversation_words';

/** The stemmed words of each conversation (see {@link CONVERSATION_WORDS}). */
export const CONVERSATION_STEMS = 'conversation_stems';

/**
 * The segments of each conversation's documents: segment `k` of conversation `n` holds the
 * words of its messages whose rowids lie in `lo`..`hi` (and of the attachments they carry), in
 * the document whose rowid is `n << SEGMENT_BITS | k`. A conversation's messages lie each in
 * one of its segments (a new message's rowid is past every row's). A document is taken out with
 * the text it was made of, read again from its messages by their rowids, before any of them
 * changes; segments are merged as a binary counter (the last two while the older holds no more
 * messages than the newer), so a message is tokenized O(log n) times over a session's appends.
 */
export const CONVERSATION_SEGMENTS = 'conversation_word_segments';

/**
 * The columns of {@link CONVERSATION_SEGMENTS} holding the first and the last day (YYYYMMDD, as
 * message_conversation's `day`) of a segment's messages (issue 46, eighth pass): null when one
 * of them has no day (a time that is not an ISO date) or the segment has no numbered message.
 * A search with a date bound counts a conversation from its words when a matching segment lies
 * wholly on the kept side of the bound's day (see segment-days.ts). Written with the segment by
 * the words' writer; a store made before them gets them on upgrade.
 */
export const SEGMENT_DAY_COLUMNS = ['first_day', 'last_day'] as const;

// A segment's first or last day: null unless every one of its messages has a day.
const dayOfSegment = (of: 'min' | 'max', n: string, lo: string, hi: string): string =>
  `SELECT CASE WHEN count(*) > 0 AND count(day) = count(*) THEN ${of}(day) END
   FROM ${MESSAGE_CONVERSATIONS} WHERE rowid BETWEEN ${lo} AND ${hi} AND n = ${n}`;

/** A segment's first and last day (`@n`, `@lo`, `@hi`; see {@link SEGMENT_DAY_COLUMNS}). */
export const SEGMENT_DAYS = `SELECT (${dayOfSegment('min', '@n', '@lo', '@hi')}),
  (${dayOfSegment('max', '@n', '@lo', '@hi')})`;

/** Whether the segments have their days (a store made before them, opened read-only, has not). */
export function segmentDaysKept(db: Database.Database): boolean {
  const columns = new Set(
    db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(CONVERSATION_SEGMENTS),
  );
  return SEGMENT_DAY_COLUMNS.every((column) => columns.has(column));
}

/**
 * Gives the segments of a store made before their days those days, from the messages' days
 * (run after the messages' numbers and days are up to date), in one transaction. Returns how
 * many segments, or undefined when there was nothing to do.
 */
export function upgradeSegmentDays(db: Database.Database): number | undefined {
  if (!tableNames(db).includes(CONVERSATION_SEGMENTS) || segmentDaysKept(db)) return undefined;
  return db.transaction(() => {
    for (const column of SEGMENT_DAY_COLUMNS)
      db.exec(`ALTER TABLE ${CONVERSATION_SEGMENTS} ADD COLUMN ${column} INTEGER`);
    return db
      .prepare(
        `UPDATE ${CONVERSATION_SEGMENTS} AS s SET
           first_day = (${dayOfSegment('min', 's.n', 's.lo', 's.hi')}),
           last_day = (${dayOfSegment('max', 's.n', 's.lo', 's.hi')})`,
      )
      .run().changes;
  })();
}

/** The bits of a document's rowid that number its segment (see {@link CONVERSATION_SEGMENTS}). */
export const SEGMENT_BITS = 8;

/** A grain document's conversation number, in SQL (see {@link CONVERSATION_WORDS}). */
export const GRAIN_NUMBER = `(rowid >> ${SEGMENT_BITS})`;

/**
 * The prefix lengths the words index: 2 and 3 letters, as message_fts had them when the tables
 * came (a store's tables are kept as they were made: a contentless table cannot be rebuilt from
 * itself, it is filled from the messages again).
 */
export const WORDS_PREFIX_LENGTHS = '2 3';

const options = (tokenizer: string): string =>
  `content, content='', detail=none, tokenize='${tokenizer}', prefix='${WORDS_PREFIX_LENGTHS}'`;

/** The tables (idempotent). */
export function conversationWordsStatements(): string[] {
  return [
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${CONVERSATION_WORDS} USING fts5(${options(TOKENIZER)})`,
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${CONVERSATION_STEMS} USING fts5(${options(STEMS_TOKENIZER)})`,
    `CREATE TABLE IF NOT EXISTS ${CONVERSATION_SEGMENTS} (n INTEGER NOT NULL, k INTEGER NOT NULL,
       lo INTEGER NOT NULL, hi INTEGER NOT NULL, messages INTEGER NOT NULL,
       first_day INTEGER, last_day INTEGER, PRIMARY KEY (n, k)) WITHOUT ROWID`,
  ];
}

/** Whether the store lacks the tables, or has them in their older shape (one row a conversation). */
export function conversationWordsMissing(db: Database.Database): boolean {
  const names = new Set(tableNames(db));
  return (
    !names.has(CONVERSATION_WORDS) ||
    !names.has(CONVERSATION_STEMS) ||
    !names.has(CONVERSATION_SEGMENTS)
  );
}

/** Empties the tables (with the node tables, by `clear`). */
export function clearConversationWords(db: Database.Database): void {
  for (const table of [CONVERSATION_WORDS, CONVERSATION_STEMS])
    if (tableNames(db).includes(table))
      db.exec(`INSERT INTO ${table} (${table}) VALUES ('delete-all')`);
  if (tableNames(db).includes(CONVERSATION_SEGMENTS))
    db.exec(`DELETE FROM ${CONVERSATION_SEGMENTS}`);
}

// One token under both tokenizers whatever SQLite's Unicode tables say: Latin letters, digits.
const ONE_TOKEN = /^[\p{Script=Latin}0-9]+$/u;

/**
 * Whether the conversations holding a search's matches are exactly those whose words match
 * it: a word or a prefix of one token, or an OR of them (a conversation holds a match of one
 * if and only if one of its texts holds it). Not a phrase, AND or NOT: those could match words
 * of two different texts.
 */
export function grainCountable(node: SearchNode): boolean {
  switch (node.kind) {
    case 'term':
      return !node.phrase && ONE_TOKEN.test(node.text);
    case 'any':
      return node.of.every(grainCountable);
    case 'all':
      return (
        node.exclude.length === 0 && node.include.length === 1 && node.include.every(grainCountable)
      );
  }
}

/**
 * Whether a text that holds `node`'s matches makes each conversation's words hold it too, and
 * the words (which keep no positions) can be asked: words and prefixes of one token, AND and
 * OR of them; not NOT (a conversation's words could hold what one of its texts excludes), not
 * phrases.
 */
function monotone(node: SearchNode): boolean {
  switch (node.kind) {
    case 'term':
      return !node.phrase && ONE_TOKEN.test(node.text);
    case 'any':
      return node.of.every(monotone);
    case 'all':
      return node.exclude.length === 0 && node.include.every(monotone);
  }
}

/**
 * Whether the conversations of a search `a -b` (one thing to match that each conversation's
 * words answer, then exclusions the words can be asked) may be counted from the words
 * (`Tables.exclusion`, see countExcluding in conversation-count.ts): when no document holds
 * both `a` and an exclusion, every text holding `a` holds a match, so they are the
 * conversations whose words hold `a`; otherwise the count is made match by match.
 */
export function exclusionCountable(
  db: Database.Database,
  root: SearchNode,
  sources: readonly string[],
  stems: boolean,
  acronyms: number,
): boolean {
  if (root.kind !== 'all' || root.include.length !== 1 || root.exclude.length === 0) return false;
  return (
    acronyms === 0 &&
    stems &&
    sources.includes('attachment') &&
    root.include.every(grainCountable) &&
    root.exclude.every(monotone) &&
    !conversationWordsMissing(db)
  );
}

/**
 * Whether the conversations of an AND of words (`a b`, no NOT, no phrase) may be counted from
 * the segments whose words hold them all (`Tables.together`, see countTogetherBySegments in
 * exclusion-count.ts): a text holding a match makes its segment's words hold every word.
 */
export function togetherCountable(
  db: Database.Database,
  root: SearchNode,
  sources: readonly string[],
  stems: boolean,
  acronyms: number,
): boolean {
  return (
    root.kind === 'all' &&
    root.include.length > 1 &&
    root.exclude.length === 0 &&
    acronyms === 0 &&
    stems &&
    sources.includes('attachment') &&
    monotone(root) &&
    !conversationWordsMissing(db)
  );
}

/** Whether a search of `root` over `sources` counts its conversations here (`Tables.grain`). */
export function grainFor(
  db: Database.Database,
  root: SearchNode,
  sources: readonly string[],
  stems: boolean,
  acronyms: number,
): boolean {
  return (
    acronyms === 0 &&
    stems &&
    sources.includes('attachment') &&
    grainCountable(root) &&
    !conversationWordsMissing(db)
  );
}
