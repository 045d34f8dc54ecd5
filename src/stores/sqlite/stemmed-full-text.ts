import type Database from 'better-sqlite3-multiple-ciphers';
import { conversationLanguage, type StemLanguage } from '../../search/stemming.js';
import { FIRST_MESSAGES, messageStems } from '../batch-language.js';
import { z } from 'zod';
import { NullableText, Text, sqliteRows } from './sqlite-rows.js';
import { PAIRS_TABLE, pairsMissing, pairsWriter } from './word-pairs.js';
import { conversationNumbers, messageNumbers, type MessageFacts } from './message-conversations.js';

/**
 * The stemmed copy of message text (issue 24): each message's words stemmed in JS in its
 * language (src/search/stemming.ts) and indexed by FTS5 without porter. It sits beside
 * message_fts, which keeps finding exact words, prefixes and phrases as before; a search reads
 * both (sqlite-search.ts). The table keeps its own copy of the stems (shorter than the text):
 * a contentless table with `contentless_delete=1` kept the deleted rows in its BM25 statistics
 * (measured: a conversation written again scored 1.38 where it had scored 0.54).
 */
export const STEMS_TABLE = 'message_stems';

/** Without porter: the words come stemmed already; accents folded as in message_fts. */
export const STEMS_TOKENIZER = 'unicode61 remove_diacritics 2';

/** The same prefix lengths as message_fts's (full-text.ts), for a prefix read in the stems. */
export const STEMS_PREFIX_LENGTHS = '2 3 4';

/** The statement that creates the stemmed table (idempotent). */
export function stemsStatement(table = STEMS_TABLE): string {
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(content, tokenize='${STEMS_TOKENIZER}', prefix='${STEMS_PREFIX_LENGTHS}')`;
}

/**
 * Builds the stemmed table again from its own rows (the stems are kept, not computed again),
 * when it was made without {@link STEMS_PREFIX_LENGTHS}: a new table filled and renamed in
 * one transaction, so a kill part-way leaves the old one. Returns the rows indexed.
 */
export function rebuildStems(db: Database.Database): number {
  const next = `${STEMS_TABLE}_next`;
  return db.transaction(() => {
    db.exec(`DROP TABLE IF EXISTS ${next}`);
    db.exec(stemsStatement(next));
    const { changes } = db
      .prepare(`INSERT INTO ${next} (rowid, content) SELECT rowid, content FROM ${STEMS_TABLE}`)
      .run();
    db.exec(`DROP TABLE ${STEMS_TABLE}`);
    db.exec(`ALTER TABLE ${next} RENAME TO ${STEMS_TABLE}`);
    return changes;
  })();
}

/** Writes and deletes stemmed rows (inside the writer's transaction). */
export interface StemsWriter {
  /** Before a conversation's messages are deleted. */
  removeOwner(owner: string): void;
  /** A message changed: its stems out, and its pairs, made from its text before (`content`). */
  remove(rowid: number | bigint, content: unknown): void;
  /**
   * A message written (inserted or changed): its stems, and its conversation's number with its
   * role and day (`numbered`, when the caller asked the number once for the conversation, see
   * {@link StemsWriter.numberOf}, and has the message's properties at hand; else read from its
   * row), and its pairs when the conversion worker made them (`pairs`, see PairsWriter.add).
   * Returns the stems written (none for a message without words).
   */
  add(
    rowid: number | bigint,
    content: unknown,
    language: StemLanguage | undefined,
    numbered?: { n: number | bigint; facts: MessageFacts },
    pairs?: string,
  ): string | undefined;
  /** A conversation's number, for the messages {@link StemsWriter.add} gives it. */
  numberOf(owner: string): number | bigint;
}

export function stemsWriter(db: Database.Database): StemsWriter {
  const removeOwner = db.prepare(
    `DELETE FROM ${STEMS_TABLE} WHERE rowid IN (SELECT rowid FROM "Message" WHERE owner = ?)`,
  );
  const remove = db.prepare(`DELETE FROM ${STEMS_TABLE} WHERE rowid = ?`);
  const insert = db.prepare(`INSERT INTO ${STEMS_TABLE} (rowid, content) VALUES (?, ?)`);
  // One set of statements for both ways a message gets its conversation's number.
  const numbers = conversationNumbers(db);
  const numbered = messageNumbers(db, numbers);
  // Each message's pairs of very common words (word-pairs.ts) pass here too.
  const pairs = pairsWriter(db);
  return {
    removeOwner: (owner) => {
      removeOwner.run(owner);
      pairs.removeOwner(owner);
    },
    remove: (rowid, content) => {
      remove.run(rowid);
      pairs.remove(rowid, content);
    },
    numberOf: (owner) => numbers.of(owner),
    add: (rowid, content, language, known, given) => {
      // Every message written passes here, whole (an import) or patched (a live append).
      if (known === undefined) numbered(rowid);
      else numbers.give(rowid, known.n, known.facts);
      pairs.add(rowid, content, given);
      const stems = messageStems(content, language);
      if (stems !== undefined) insert.run(rowid, stems);
      return stems;
    },
  };
}

/** Whether the store file has the stemmed table (an older version's has not). */
export function stemsMissing(db: Database.Database): boolean {
  return (
    db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(STEMS_TABLE) ===
    undefined
  );
}

const MessageText = z.object({ rowid: z.number(), content: NullableText });

/**
 * Fills the stemmed table from the messages a store already holds, a conversation at a time
 * (each one's language detected as an import would): an older store brought up to date in
 * place. Returns how many messages were indexed.
 */
export function fillStems(db: Database.Database): number {
  const owners = sqliteRows(
    z.object({ id: Text, name: NullableText }),
    db.prepare(`SELECT id, name FROM "Conversation"`).all(),
    'conversation',
  );
  const messagesOf = db.prepare(
    `SELECT rowid, content FROM "Message" WHERE owner = ? ORDER BY created_at, rowid`,
  );
  const writer = stemsWriter(db);
  let indexed = 0;
  db.transaction(() => {
    for (const { id, name } of owners) {
      const rows = sqliteRows(MessageText, messagesOf.all(id), 'message');
      const texts = rows.slice(0, FIRST_MESSAGES).flatMap((r) => (r.content ? [r.content] : []));
      const language = conversationLanguage(name ?? '', texts);
      for (const row of rows) {
        writer.add(row.rowid, row.content, language);
        indexed++;
      }
    }
  })();
  return indexed;
}

/** Empties the stemmed table (with the node tables, by `clear`). */
export function clearStems(db: Database.Database): void {
  db.exec(`DELETE FROM ${STEMS_TABLE}`);
  // Contentless: emptied by FTS5's own command.
  if (!pairsMissing(db))
    db.exec(`INSERT INTO ${PAIRS_TABLE} (${PAIRS_TABLE}) VALUES ('delete-all')`);
}
