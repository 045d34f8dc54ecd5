import { MESSAGE_OWNER_COLUMNS, MESSAGE_OWNER_INDEX } from './sqlite-matches.js';
import {
  EDGE_KINDS,
  LABELS,
  LABEL_NAMES,
  type EdgeKind,
  type Label,
  type PropertyType,
} from '../../graph/schema.js';
import { fullTextStatements } from './full-text.js';
import { stemsStatement } from './stemmed-full-text.js';
import { TOKEN_COUNTS_TABLE } from './sqlite-token-counts.js';

/** The graph as tables: one per label (properties as columns), one per relationship type. */

const SQL_TYPES: Record<PropertyType, string> = {
  string: 'TEXT',
  integer: 'INTEGER',
  boolean: 'INTEGER',
};

/** A quoted SQL identifier. */
export function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The property columns of a label, in schema order. */
export function columnsOf(label: Label): string[] {
  return Object.keys(LABELS[label].properties);
}

/** The type of each property of a label. */
export function typesOf(label: Label): Record<string, PropertyType> {
  return LABELS[label].properties;
}

/**
 * How a conversation's edges of the three big kinds are found from its id alone, by the
 * primary key: HAS_MESSAGE starts at the Conversation itself, NEXT and REPLY_TO at its
 * messages, whose ids start with `{conversation id}:`. They need no owner or dst index
 * (measured at a million messages: those indexes were 1.1 of the store's 3.7 GB, and half the
 * inserts of an import). Other kinds are found by an `owner` index.
 */
export function ownedBySource(kind: EdgeKind): 'equal' | 'prefix' | undefined {
  if (kind === 'HAS_MESSAGE') return 'equal';
  if (kind === 'NEXT' || kind === 'REPLY_TO') return 'prefix';
  return undefined;
}

/** The statements that create the schema (idempotent). */
export function schemaStatements(): string[] {
  const statements: string[] = [
    `CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    // Import state: what each conversation looked like when indexed.
    `CREATE TABLE IF NOT EXISTS conversation_state (id TEXT PRIMARY KEY, content_hash TEXT NOT NULL, deep INTEGER NOT NULL)`,
    // Messages counted per conversation, month, role and model ('' for none), so the overview
    // does not read every message (measured at 350,000 messages: 760 ms, now a few ms).
    `CREATE TABLE IF NOT EXISTS message_counts (owner TEXT NOT NULL, month TEXT NOT NULL, role TEXT NOT NULL, model TEXT NOT NULL, messages INTEGER NOT NULL, PRIMARY KEY (owner, month, role, model)) WITHOUT ROWID`,
    // Token counts summed per conversation, quarter hour, model and long prompt (usage reports).
    TOKEN_COUNTS_TABLE,
  ];
  for (const label of LABEL_NAMES) {
    const columns = columnsOf(label).map(
      (c) => `${quote(c)} ${SQL_TYPES[typesOf(label)[c] as PropertyType]}`,
    );
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${quote(label)} (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, owner TEXT, ${columns.join(', ')})`,
    );
    // Message has (owner, position) below, which serves owner lookups too.
    if (label !== 'Message')
      statements.push(
        `CREATE INDEX IF NOT EXISTS ${quote(`${label}_owner`)} ON ${quote(label)} (owner)`,
      );
  }
  for (const kind of EDGE_KINDS) {
    statements.push(
      `CREATE TABLE IF NOT EXISTS ${quote(kind)} (src TEXT NOT NULL, dst TEXT NOT NULL, owner TEXT, PRIMARY KEY (src, dst)) WITHOUT ROWID`,
    );
    if (ownedBySource(kind) === undefined) {
      statements.push(
        `CREATE INDEX IF NOT EXISTS ${quote(`${kind}_dst`)} ON ${quote(kind)} (dst)`,
        `CREATE INDEX IF NOT EXISTS ${quote(`${kind}_owner`)} ON ${quote(kind)} (owner)`,
      );
    }
  }
  statements.push(
    `CREATE INDEX IF NOT EXISTS message_thread ON "Message" (owner, position)`,
    // A match's conversation without reading its message (counts of conversations, see
    // sqlite-matches.ts): the rows hold the text, this index only the two columns.
    `CREATE INDEX IF NOT EXISTS ${MESSAGE_OWNER_INDEX} ON "Message" (${MESSAGE_OWNER_COLUMNS})`,
    `CREATE INDEX IF NOT EXISTS conversation_platform ON "Conversation" (conversation_id)`,
    `CREATE INDEX IF NOT EXISTS conversation_created ON "Conversation" (created_at)`,
    // A message id typed short is a prefix of its message part (after the conversation's id).
    MESSAGE_LOCAL_ID_INDEX,
    // Ranked search over message and attachment text (see full-text.ts).
    ...fullTextStatements(),
    // Message text stemmed per language (see stemmed-full-text.ts).
    stemsStatement(),
  );
  return statements;
}

/** A message node id's message part (what follows `{conversation}:`), as its index has it. */
export const MESSAGE_PART = `substr(id, instr(id, ':') + 1)`;

/** The index of message parts (a short message id is a prefix of one; see deferred-index.ts). */
export const MESSAGE_LOCAL_ID_INDEX = `CREATE INDEX IF NOT EXISTS message_local_id ON "Message" (${MESSAGE_PART})`;

/** Every edge kind, for loops. */
export const EDGE_TABLES: readonly EdgeKind[] = EDGE_KINDS;
