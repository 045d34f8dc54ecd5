import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
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

/**
 * Beside each message's number, what a search's message filters read (issue 46, fifth pass):
 * its role as written, and its day as the number YYYYMMDD (the first ten characters of its
 * time, when they are a date; null otherwise). A role or date filter is checked here (a few
 * bytes a match) instead of through the owner index (about 1 µs a match at a million
 * messages). A day is exact for every bound but the bound's own day, which a search checks
 * against the message's time (sqlite-matches.ts).
 */
const MESSAGE_FACTS = 'role TEXT, day INTEGER';

/** The columns {@link MESSAGE_FACTS} adds: a store without them is upgraded once. */
const FACT_COLUMNS = ['role', 'day'] as const;

/** The day of a message's time as YYYYMMDD, when the time starts with an ISO date. */
export function dayOf(time: unknown): number | null {
  if (typeof time !== 'string') return null;
  const date = /^(\d{4})-(\d{2})-(\d{2})/.exec(time);
  return date ? Number(`${date[1]}${date[2]}${date[3]}`) : null;
}

/** {@link dayOf} in SQL, for the upgrade of an older store. */
const DAY_SQL = (time: string): string =>
  `CASE WHEN ${time} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*' THEN CAST(substr(${time}, 1, 4) || substr(${time}, 6, 2) || substr(${time}, 9, 2) AS INTEGER) END`;

/** A message's role as a filter compares it (`m.role = @role`): text, or null. */
function roleOf(role: unknown): string | null {
  return typeof role === 'string' ? role : null;
}

/** The tables and the trigger (idempotent). */
export function messageConversationStatements(): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${CONVERSATION_NUMBERS} (n INTEGER PRIMARY KEY, owner TEXT NOT NULL UNIQUE)`,
    `CREATE TABLE IF NOT EXISTS ${MESSAGE_CONVERSATIONS} (rowid INTEGER PRIMARY KEY, n INTEGER NOT NULL, ${MESSAGE_FACTS})`,
    // A delete already opens a statement journal (it takes the words out of FTS5 first).
    `CREATE TRIGGER IF NOT EXISTS ${DELETE_TRIGGER} AFTER DELETE ON "Message" BEGIN
       DELETE FROM ${MESSAGE_CONVERSATIONS} WHERE rowid = OLD.rowid;
     END`,
  ];
}

/** What a message's row says that {@link MESSAGE_CONVERSATIONS} keeps beside its number. */
export interface MessageFacts {
  role?: unknown;
  created_at?: unknown;
}

/** A conversation's number, given when first asked; and a message's number, set. */
export interface ConversationNumbers {
  of(owner: string): number | bigint;
  /** The message's number, role and day (from its row's `role` and `created_at`). */
  give(rowid: number | bigint, n: number | bigint, facts: MessageFacts): void;
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
  const change = db.prepare(
    `UPDATE ${MESSAGE_CONVERSATIONS} SET n = ?, role = ?, day = ? WHERE rowid = ?`,
  );
  const insert = db.prepare(
    `INSERT INTO ${MESSAGE_CONVERSATIONS} (rowid, n, role, day) VALUES (?, ?, ?, ?)`,
  );
  return {
    of: (owner) => {
      const known: unknown = numberOf.get(owner);
      return typeof known === 'number' || typeof known === 'bigint'
        ? known
        : number.run(owner).lastInsertRowid;
    },
    give: (rowid, n, facts) => {
      const role = roleOf(facts.role);
      const day = dayOf(facts.created_at);
      if (change.run(n, role, day, rowid).changes === 0) insert.run(rowid, n, role, day);
    },
  };
}

/** Gives a message just written its conversation's number (inside the writer's transaction). */
export function messageNumbers(
  db: Database.Database,
  numbers: ConversationNumbers = conversationNumbers(db),
): (rowid: number | bigint) => void {
  const rowOf = db.prepare(`SELECT owner, role, created_at FROM "Message" WHERE rowid = ?`);
  return (rowid) => {
    const row = MessageRow.safeParse(rowOf.get(rowid));
    if (!row.success || typeof row.data.owner !== 'string') return;
    numbers.give(rowid, numbers.of(row.data.owner), row.data);
  };
}

const MessageRow = z.object({ owner: z.unknown(), role: z.unknown(), created_at: z.unknown() });

/**
 * Whether {@link MESSAGE_CONVERSATIONS} holds each message's role and day (a store made before
 * them, opened read-only, has the numbers alone: its searches filter through the owner index).
 */
export function messageFactsKept(db: Database.Database): boolean {
  const columns = new Set(
    db
      .prepare(`SELECT name FROM pragma_table_info(?)`)
      .pluck()
      .all(MESSAGE_CONVERSATIONS)
      .filter((name): name is string => typeof name === 'string'),
  );
  return FACT_COLUMNS.every((column) => columns.has(column));
}

/** Whether the store lacks the tables or one of their triggers (an older version made it). */
export function messageConversationsMissing(db: Database.Database): boolean {
  const names = new Set(tableNames(db));
  if (!names.has(MESSAGE_CONVERSATIONS) || !names.has(CONVERSATION_NUMBERS)) return true;
  if (!messageFactsKept(db)) return true;
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
    // Made again whole (numbers kept) when it lacks the role and day: an UPDATE of every row
    // would leave a table of rows grown in place.
    if (tableNames(db).includes(MESSAGE_CONVERSATIONS) && !messageFactsKept(db))
      db.exec(`DROP TABLE ${MESSAGE_CONVERSATIONS}`);
    for (const statement of messageConversationStatements()) db.exec(statement);
    db.exec(`DELETE FROM ${MESSAGE_CONVERSATIONS}`);
    // Numbered in the order of each conversation's first message, as the triggers would have.
    db.exec(
      `INSERT OR IGNORE INTO ${CONVERSATION_NUMBERS} (owner)
       SELECT owner FROM "Message" WHERE owner IS NOT NULL GROUP BY owner ORDER BY min(rowid)`,
    );
    return db
      .prepare(
        `INSERT INTO ${MESSAGE_CONVERSATIONS} (rowid, n, role, day)
         SELECT m.rowid, k.n, CASE WHEN typeof(m.role) = 'text' THEN m.role END, ${DAY_SQL('m.created_at')}
         FROM "Message" m JOIN ${CONVERSATION_NUMBERS} k ON k.owner = m.owner`,
      )
      .run().changes;
  })();
}

/** Empties both tables (with the node tables, by `clear`). */
export function clearMessageConversations(db: Database.Database): void {
  db.exec(`DELETE FROM ${MESSAGE_CONVERSATIONS}; DELETE FROM ${CONVERSATION_NUMBERS}`);
}
