import type Database from 'better-sqlite3-multiple-ciphers';
import { tableNames } from './sqlite-rows.js';

/**
 * Each message's conversation as a small integer, beside the messages: what an exact count of
 * the conversations holding a search's matches reads for every match. Through the index on
 * "Message" (rowid, owner, role, created_at) that was one seek into a wide index and a
 * distinct count of text ids a match, about 1 µs each and 41% of a search's time (profiled at
 * 300,000 messages, docs/performance.md); these rows are a few bytes each.
 *
 * Kept by triggers on "Message", so every path that writes messages (import, live appends,
 * patches, delete, re-import, restore, clear) keeps it without knowing of it. A conversation's
 * number comes from {@link CONVERSATION_NUMBERS}, given once per conversation id and never
 * reused for another id.
 */
export const MESSAGE_CONVERSATIONS = 'message_conversation';

/** Conversation ids and their numbers (see {@link MESSAGE_CONVERSATIONS}). */
export const CONVERSATION_NUMBERS = 'conversation_number';

const TRIGGERS = {
  insert: 'message_conversation_insert',
  delete: 'message_conversation_delete',
  owner: 'message_conversation_owner',
} as const;

/** The tables and triggers (idempotent). */
export function messageConversationStatements(): string[] {
  // A message's number, given its conversation a number first if it has none.
  const numbered = (message: 'NEW'): string =>
    `INSERT OR IGNORE INTO ${CONVERSATION_NUMBERS} (owner) VALUES (${message}.owner);
     INSERT OR REPLACE INTO ${MESSAGE_CONVERSATIONS} (rowid, n)
       SELECT ${message}.rowid, n FROM ${CONVERSATION_NUMBERS} WHERE owner = ${message}.owner;`;
  return [
    `CREATE TABLE IF NOT EXISTS ${CONVERSATION_NUMBERS} (n INTEGER PRIMARY KEY, owner TEXT NOT NULL UNIQUE)`,
    `CREATE TABLE IF NOT EXISTS ${MESSAGE_CONVERSATIONS} (rowid INTEGER PRIMARY KEY, n INTEGER NOT NULL)`,
    `CREATE TRIGGER IF NOT EXISTS ${TRIGGERS.insert} AFTER INSERT ON "Message"
     WHEN NEW.owner IS NOT NULL BEGIN ${numbered('NEW')} END`,
    `CREATE TRIGGER IF NOT EXISTS ${TRIGGERS.delete} AFTER DELETE ON "Message" BEGIN
       DELETE FROM ${MESSAGE_CONVERSATIONS} WHERE rowid = OLD.rowid;
     END`,
    // An upsert sets every column, owner included: only a real change is written.
    `CREATE TRIGGER IF NOT EXISTS ${TRIGGERS.owner} AFTER UPDATE OF rowid, owner ON "Message"
     WHEN OLD.owner IS NOT NEW.owner OR OLD.rowid IS NOT NEW.rowid BEGIN
       DELETE FROM ${MESSAGE_CONVERSATIONS} WHERE rowid = OLD.rowid;
       INSERT OR IGNORE INTO ${CONVERSATION_NUMBERS} (owner) SELECT NEW.owner WHERE NEW.owner IS NOT NULL;
       INSERT OR REPLACE INTO ${MESSAGE_CONVERSATIONS} (rowid, n)
         SELECT NEW.rowid, n FROM ${CONVERSATION_NUMBERS} WHERE owner = NEW.owner;
     END`,
  ];
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
  return Object.values(TRIGGERS).some((name) => !triggers.has(name));
}

/**
 * Brings an older store up to date: the tables and triggers made and filled from the messages
 * it holds, in one transaction (a kill part-way leaves the store as it was). Returns how many
 * messages were numbered, or undefined when the store was up to date.
 */
export function upgradeMessageConversations(db: Database.Database): number | undefined {
  if (!messageConversationsMissing(db)) return undefined;
  return db.transaction(() => {
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
