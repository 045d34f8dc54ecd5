import type Database from 'better-sqlite3-multiple-ciphers';
import type { SearchNode } from '../../search/search-terms.js';
import { TOKENIZER, PREFIX_LENGTHS } from './full-text.js';
import { STEMS_TOKENIZER } from './stemmed-full-text.js';
import { tableNames } from './sqlite-rows.js';

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

/** The bits of a document's rowid that number its segment (see {@link CONVERSATION_SEGMENTS}). */
export const SEGMENT_BITS = 8;

/** A grain document's conversation number, in SQL (see {@link CONVERSATION_WORDS}). */
export const GRAIN_NUMBER = `(rowid >> ${SEGMENT_BITS})`;

const options = (tokenizer: string): string =>
  `content, content='', detail=none, tokenize='${tokenizer}', prefix='${PREFIX_LENGTHS}'`;

/** The tables (idempotent). */
export function conversationWordsStatements(): string[] {
  return [
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${CONVERSATION_WORDS} USING fts5(${options(TOKENIZER)})`,
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${CONVERSATION_STEMS} USING fts5(${options(STEMS_TOKENIZER)})`,
    `CREATE TABLE IF NOT EXISTS ${CONVERSATION_SEGMENTS} (n INTEGER NOT NULL, k INTEGER NOT NULL,
       lo INTEGER NOT NULL, hi INTEGER NOT NULL, messages INTEGER NOT NULL,
       PRIMARY KEY (n, k)) WITHOUT ROWID`,
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
