import type Database from 'better-sqlite3-multiple-ciphers';
import { tableNames } from './sqlite-rows.js';

/**
 * Each message's conversation as a small integer, beside the messages: what an exact count of
 * the conversations holding a search's matches reads for every match. Through the index on
 * "Message" (rowid, owner, role, created_at) that was one seek into a wide index and a
 * distinct count of text ids a match, about 1 µs each and 41% of a search's time (profiled at
 * 300,000 messages, docs/performance.md); these rows are a few bytes each.
 *
 * Written by {@link messageNumbers} for each message written (the stemmed table's writer calls
 * it: every message inserted or changed, by an import or a patch, passes there), and taken out
 * by a trigger when a message is deleted (by a re-import, `delete`, a patch or `clear`). Not by
 * an insert trigger: a trigger makes every insert of a message open a statement journal, where
 * FTS5 writes its pending terms out as a segment (measured on an import of 64,000 messages:
 * 35–45% more CPU). A conversation's number comes from {@link CONVERSATION_NUMBERS}, given once
 * per conversation id and never reused for another id.
 */
export const MESSAGE_CONVERSATIONS = 'message_conversation';

/** Conversation ids and their numbers (see {@link MESSAGE_CONVERSATIONS}). */
export const CONVERSATION_NUMBERS = 'conversation_number';

const DELETE_TRIGGER = 'message_conversation_delete';

/** The tables and the trigger (idempotent). */
export function messageConversationStatements(): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${CONVERSATION_NUMBERS} (n INTEGER PRIMARY KEY, owner TEXT NOT NULL UNIQUE)`,
    `CREATE TABLE IF NOT EXISTS ${MESSAGE_CONVERSATIONS} (rowid INTEGER PRIMARY KEY, n INTEGER NOT NULL)`,
    // A delete already opens a statement journal (it takes the words out of FTS5 first).
    `CREATE TRIGGER IF NOT EXISTS ${DELETE_TRIGGER} AFTER DELETE ON "Message" BEGIN
       DELETE FROM ${MESSAGE_CONVERSATIONS} WHERE rowid = OLD.rowid;
     END`,
  ];
}

/** A conversation's number, given when first asked; and a message's number, set. */
export interface ConversationNumbers {
  of(owner: string): number | bigint;
  give(rowid: number | bigint, n: number | bigint): void;
}

/**
 * The statements behind {@link messageNumbers}, for a writer that knows the conversation it
 * writes: its number asked once, not two lookups a message (an import's writer).
 * Single-row statements only: an INSERT … SELECT or an INSERT OR REPLACE would open a statement
 * journal, and with it a segment of FTS5's pending terms.
 */
export function conversationNumbers(db: Database.Database): ConversationNumbers {
  const numberOf = db.prepare(`SELECT n FROM ${CONVERSATION_NUMBERS} WHERE owner = ?`).pluck();
  const number = db.prepare(`INSERT INTO ${CONVERSATION_NUMBERS} (owner) VALUES (?)`);
  const change = db.prepare(`UPDATE ${MESSAGE_CONVERSATIONS} SET n = ? WHERE rowid = ?`);
  const insert = db.prepare(`INSERT INTO ${MESSAGE_CONVERSATIONS} (rowid, n) VALUES (?, ?)`);
  return {
    of: (owner) => {
      const known: unknown = numberOf.get(owner);
      return typeof known === 'number' || typeof known === 'bigint'
        ? known
        : number.run(owner).lastInsertRowid;
    },
    give: (rowid, n) => {
      if (change.run(n, rowid).changes === 0) insert.run(rowid, n);
    },
  };
}

/** Gives a message just written its conversation's number (inside the writer's transaction). */
export function messageNumbers(
  db: Database.Database,
  numbers: ConversationNumbers = conversationNumbers(db),
): (rowid: number | bigint) => void {
  const ownerOf = db.prepare(`SELECT owner FROM "Message" WHERE rowid = ?`).pluck();
  return (rowid) => {
    const owner: unknown = ownerOf.get(rowid);
    if (typeof owner !== 'string') return;
    numbers.give(rowid, numbers.of(owner));
  };
}

/** Whether the store lacks the tables or one of their triggers (an older version made it). */
export function messageConversationsMissing(db: Database.Database): boolean {
  const names = new Set(tableNames(db));
  if (!names.has(MESSAGE_CONVERSATIONS) || !names.has(CONVERSATION_NUMBERS)) return true;
  const triggers = new Set(
    db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger'`)
      .pluck()
      .all()
      .filter((name): name is string => typeof name === 'string'),
  );
  return !triggers.has(DELETE_TRIGGER);
}

/**
 * Brings an older store up to date: the tables and triggers made and filled from the messages
 * it holds, in one transaction (a kill part-way leaves the store as it was). Returns how many
 * messages were numbered, or undefined when the store was up to date.
 */
export function upgradeMessageConversations(db: Database.Database): number | undefined {
  if (!messageConversationsMissing(db)) return undefined;
  return db.transaction(() => {
    for (const old of ['message_conversation_insert', 'message_conversation_owner'])
      db.exec(`DROP TRIGGER IF EXISTS ${old}`);
    for (const statement of messageConversationStatements()) db.exec(statement);
    db.exec(`DELETE FROM ${MESSAGE_CONVERSATIONS}`);
    // Numbered in the order of each conversation's first message, as the triggers would have.
    db.exec(
      `INSERT OR IGNORE INTO ${CONVERSATION_NUMBERS} (owner)
       SELECT owner FROM "Message" WHERE owner IS NOT NULL GROUP BY owner ORDER BY min(rowid)`,
    );
    return db
      .prepare(
        `INSERT INTO ${MESSAGE_CONVERSATIONS} (rowid, n)
         SELECT m.rowid, k.n FROM "Message" m JOIN ${CONVERSATION_NUMBERS} k ON k.owner = m.owner`,
      )
      .run().changes;
  })();
}

/** Empties both tables (with the node tables, by `clear`). */
export function clearMessageConversations(db: Database.Database): void {
  db.exec(`DELETE FROM ${MESSAGE_CONVERSATIONS}; DELETE FROM ${CONVERSATION_NUMBERS}`);
}
