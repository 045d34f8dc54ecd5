import type Database from 'better-sqlite3-multiple-ciphers';
import type { SearchNode } from '../../search/search-terms.js';
import { TOKENIZER, PREFIX_LENGTHS } from './full-text.js';
import { STEMS_TABLE, STEMS_TOKENIZER } from './stemmed-full-text.js';
import { CONVERSATION_NUMBERS } from './message-conversations.js';
import { tableNames } from './sqlite-rows.js';

/**
 * The words of each conversation, one row per conversation number (issue 46, fifth pass): what
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
 * A conversation's rows are taken out before each write of it (an import, a live append, a
 * re-import with --redact, a delete) and written again whole after it (see
 * {@link conversationWordsWriter}).
 */
export const CONVERSATION_WORDS = 'conversation_words';

/** The stemmed words of each conversation (see {@link CONVERSATION_WORDS}). */
export const CONVERSATION_STEMS = 'conversation_stems';

const options = (tokenizer: string): string =>
  `content, content='', detail=none, tokenize='${tokenizer}', prefix='${PREFIX_LENGTHS}'`;

/** The two tables (idempotent). */
export function conversationWordsStatements(): string[] {
  return [
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${CONVERSATION_WORDS} USING fts5(${options(TOKENIZER)})`,
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${CONVERSATION_STEMS} USING fts5(${options(STEMS_TOKENIZER)})`,
  ];
}

// A conversation's texts joined by a line break, a word separator for both tokenizers: the
// messages' texts and those of the attachments they carry, as the per-match count joins them.
const WORDS_OF = `SELECT group_concat(content, char(10)) FROM (
    SELECT m.content AS content FROM "Message" m WHERE m.owner = @owner
    UNION ALL
    SELECT a.content FROM "Message" m JOIN "HAS_ATTACHMENT" e ON e.src = m.id
      JOIN "Attachment" a ON a.id = e.dst WHERE m.owner = @owner)`;
const STEMS_OF = `SELECT group_concat(s.content, char(10)) FROM ${STEMS_TABLE} s
  WHERE s.rowid IN (SELECT m.rowid FROM "Message" m WHERE m.owner = @owner)`;

/** Writes a conversation's words (inside the writer's transaction). */
export interface ConversationWordsWriter {
  /** The words of a conversation's texts as they are now: before its rows change. */
  wordsOf(owner: string): ConversationText;
  /** Takes out the words {@link wordsOf} read (before the rows changed). */
  remove(text: ConversationText): void;
  /** Writes a conversation's words from its rows as they are now (after they were written). */
  add(owner: string): void;
}

/** What a conversation's rows in both tables were made of. */
export interface ConversationText {
  n: number | bigint | undefined;
  texts: unknown[];
}

/**
 * Single-row statements only: an INSERT … SELECT on an FTS5 table opens a statement journal,
 * where FTS5 writes its pending terms out as a segment (see message-conversations.ts). A row is
 * taken out by FTS5's 'delete' command with the text it was made of, read from the
 * conversation's rows before they change: with `secure-delete` that leaves none of its words in
 * the file (a re-import with --redact must not keep a secret's words), where a
 * `contentless_delete=1` table kept them until a merge.
 */
export function conversationWordsWriter(db: Database.Database): ConversationWordsWriter {
  const numberOf = db.prepare(`SELECT n FROM ${CONVERSATION_NUMBERS} WHERE owner = ?`).pluck();
  const tables = [
    { table: CONVERSATION_WORDS, text: db.prepare(WORDS_OF).pluck() },
    { table: CONVERSATION_STEMS, text: db.prepare(STEMS_OF).pluck() },
  ].map(({ table, text }) => ({
    text,
    remove: db.prepare(`INSERT INTO ${table} (${table}, rowid, content) VALUES ('delete', ?, ?)`),
    insert: db.prepare(`INSERT INTO ${table} (rowid, content) VALUES (?, ?)`),
  }));
  const wordsOf = (owner: string): ConversationText => {
    const n: unknown = numberOf.get(owner);
    if (typeof n !== 'number' && typeof n !== 'bigint') return { n: undefined, texts: [] };
    return { n, texts: tables.map((table) => table.text.get({ owner })) };
  };
  // A table has a conversation's row when its text was not empty (see add).
  const written = (text: unknown): text is string => typeof text === 'string' && text !== '';
  return {
    wordsOf,
    remove: ({ n, texts }) => {
      if (n === undefined) return;
      tables.forEach((table, i) => {
        const text = texts[i];
        if (written(text)) table.remove.run(n, text);
      });
    },
    add: (owner) => {
      const { n, texts } = wordsOf(owner);
      if (n === undefined) return;
      tables.forEach((table, i) => {
        const text = texts[i];
        if (written(text)) table.insert.run(n, text);
      });
    },
  };
}

/** Whether the store lacks the tables (an older version made it). */
export function conversationWordsMissing(db: Database.Database): boolean {
  const names = new Set(tableNames(db));
  return !names.has(CONVERSATION_WORDS) || !names.has(CONVERSATION_STEMS);
}

/**
 * Makes and fills the tables of a store made before them, in one transaction (a kill part-way
 * leaves the store as it was; run after the messages' numbers and stems are up to date).
 * Returns how many conversations were indexed, or undefined when the store was up to date.
 */
export function upgradeConversationWords(db: Database.Database): number | undefined {
  if (!conversationWordsMissing(db)) return undefined;
  return db.transaction(() => {
    for (const table of [CONVERSATION_WORDS, CONVERSATION_STEMS])
      db.exec(`DROP TABLE IF EXISTS ${table}`);
    for (const statement of conversationWordsStatements()) db.exec(statement);
    const owners = db.prepare(`SELECT owner FROM ${CONVERSATION_NUMBERS}`).pluck().all();
    const writer = conversationWordsWriter(db);
    for (const owner of owners) if (typeof owner === 'string') writer.add(owner);
    return owners.length;
  })();
}

/** Empties both tables (with the node tables, by `clear`). */
export function clearConversationWords(db: Database.Database): void {
  for (const table of [CONVERSATION_WORDS, CONVERSATION_STEMS])
    if (tableNames(db).includes(table))
      db.exec(`INSERT INTO ${table} (${table}) VALUES ('delete-all')`);
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
