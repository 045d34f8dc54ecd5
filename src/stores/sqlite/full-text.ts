import type Database from 'better-sqlite3-multiple-ciphers';
import {
  clearStems,
  STEMS_PREFIX_LENGTHS,
  STEMS_TABLE,
  STEMS_TOKENIZER,
} from './stemmed-full-text.js';
import { clearMessageConversations } from './message-conversations.js';
import { tableNames } from './sqlite-rows.js';

/**
 * The embedded store's full-text indexes: FTS5 over message text and over attachment text
 * (external content: the text stays in "Message" and "Attachment"), and their upkeep.
 */

/**
 * Porter stemming over unicode61 with accents removed, so "decorators" finds "decorator" and
 * "cafe" finds "café". Porter only rewrites English suffixes: other languages are searched as
 * unicode61 alone did (a test compares both on accented, Portuguese, German and Japanese text).
 */
export const TOKENIZER = 'porter unicode61 remove_diacritics 2';

/**
 * FTS5 keeps an index of every word's first 2, 3 and 4 letters beside the words: a prefix of
 * that length (`th*`, `the*`, `beca*`) reads one list of matches. Without it FTS5 merged the
 * lists of every word the prefix starts (the, then, there, their…) whole before reading any,
 * whatever the window, and again for bm25's statistics: `the*` took about a second at a million
 * messages, and `beca*` 70 ms with 2 and 3 alone (docs/performance.md, issue 46 fourth and ninth
 * passes). Longer prefixes start few words and are read as before. A store made with other
 * lengths is rebuilt once at its next writable open ({@link fullTextOutdated}).
 */
export const PREFIX_LENGTHS = STEMS_PREFIX_LENGTHS;

/** The options of a full-text table over a node table's text (external content). */
export function fullTextOptions(label: string): string {
  return `content, content='${label}', content_rowid='rowid', tokenize='${TOKENIZER}', prefix='${PREFIX_LENGTHS}'`;
}

/** The full-text tables, and the node table each indexes. */
export const FULL_TEXT = [
  { table: 'message_fts', label: 'Message' },
  { table: 'attachment_fts', label: 'Attachment' },
] as const;

/** The statements that create the full-text tables (idempotent). */
export function fullTextStatements(): string[] {
  return FULL_TEXT.map(
    ({ table, label }) =>
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(${fullTextOptions(label)})`,
  );
}

/** The full-text tables a store file lacks (made by an older version). */
export function fullTextMissing(db: Database.Database): string[] {
  const tables = new Set(tableNames(db));
  return FULL_TEXT.filter(({ table }) => !tables.has(table)).map(({ table }) => table);
}

/** An option of a full-text table as its CREATE statement gave it ('' when not given). */
function optionOf(db: Database.Database, table: string, option: string): string | undefined {
  const sql: unknown = db
    .prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`)
    .pluck()
    .get(table);
  if (typeof sql !== 'string') return undefined;
  return new RegExp(`${option}\\s*=\\s*'([^']*)'`, 'i').exec(sql)?.[1] ?? '';
}

/** The tokenizer a full-text table was made with, from its CREATE statement. */
export function tokenizerOf(db: Database.Database, table: string): string | undefined {
  return optionOf(db, table, 'tokenize');
}

/** The prefix lengths a full-text table indexes ('' for none), from its CREATE statement. */
export function prefixesOf(db: Database.Database, table: string): string | undefined {
  return optionOf(db, table, 'prefix');
}

/**
 * The full-text tables a writable open will build again (made with an older tokenizer or
 * without {@link PREFIX_LENGTHS}), the stemmed table too.
 */
export function fullTextOutdated(db: Database.Database): string[] {
  const stale = (table: string, tokenizer: string): boolean => {
    const made = tokenizerOf(db, table);
    return made !== undefined && (made !== tokenizer || prefixesOf(db, table) !== PREFIX_LENGTHS);
  };
  return [
    ...FULL_TEXT.filter(({ table }) => stale(table, TOKENIZER)).map(({ table }) => table),
    ...(stale(STEMS_TABLE, STEMS_TOKENIZER) ? [STEMS_TABLE] : []),
  ];
}

/**
 * Brings a store's full-text tables up to date, after the schema statements: indexes what the
 * node tables already hold for tables that were `missing` before them and, when `retokenize`,
 * rebuilds a table made with an older tokenizer (message_fts before stemming: about a minute at
 * a million messages, once). Without `retokenize` an old table is kept and searched as it is
 * (without stemming). Returns the tables rebuilt.
 */
export function upgradeFullText(
  db: Database.Database,
  retokenize: boolean,
  missing: readonly string[],
): string[] {
  const rebuilt: string[] = [];
  for (const { table, label } of FULL_TEXT) {
    const current =
      tokenizerOf(db, table) === TOKENIZER && prefixesOf(db, table) === PREFIX_LENGTHS;
    if (current && !missing.includes(table)) continue;
    if (!current && !retokenize) continue;
    db.transaction(() => {
      db.exec(`DROP TABLE IF EXISTS ${table}`);
      db.exec(`CREATE VIRTUAL TABLE ${table} USING fts5(${fullTextOptions(label)})`);
      db.exec(`INSERT INTO ${table} (${table}) VALUES ('rebuild')`);
    })();
    rebuilt.push(table);
  }
  return rebuilt;
}

/** Keeps the full-text tables in step with a conversation's rows (inside the writer's transaction). */
export interface FullTextWriter {
  /** Before a conversation's rows are deleted: takes their text out of the indexes. */
  removeOwner(owner: string): void;
  /** After a node is inserted with a fresh rowid: indexes its text if its label is indexed. */
  add(label: string, rowid: number | bigint, content: unknown): void;
}

/** Prepared statements for {@link FullTextWriter}. */
export function fullTextWriter(db: Database.Database): FullTextWriter {
  const remove = FULL_TEXT.map(({ table, label }) =>
    db.prepare(
      `INSERT INTO ${table} (${table}, rowid, content) SELECT 'delete', rowid, content FROM "${label}" WHERE owner = ?`,
    ),
  );
  const insert = new Map(
    FULL_TEXT.map(({ table, label }) => [
      label as string,
      db.prepare(`INSERT INTO ${table} (rowid, content) VALUES (?, ?)`),
    ]),
  );
  return {
    removeOwner: (owner) => {
      for (const statement of remove) statement.run(owner);
    },
    add: (label, rowid, content) => {
      insert.get(label)?.run(rowid, typeof content === 'string' ? content : '');
    },
  };
}

/**
 * Empties the full-text tables, the stemmed one too, and the messages' conversation numbers
 * (with their node tables, by `clear`).
 */
export function clearFullText(db: Database.Database): void {
  for (const { table } of FULL_TEXT)
    db.exec(`INSERT INTO ${table} (${table}) VALUES ('delete-all')`);
  clearStems(db);
  clearMessageConversations(db);
}
