import { channel } from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3-multiple-ciphers';
import { LABEL_NAMES } from '../../graph/schema.js';
import { FULL_TEXT, fullTextMissing, fullTextOutdated, upgradeFullText } from './full-text.js';
import { openReadonly } from './open-readonly.js';
import { isEmptyFile } from './store-damage.js';
import {
  fillStems,
  rebuildStems,
  STEMS_TABLE,
  stemsMissing,
  stemsStatement,
} from './stemmed-full-text.js';
import {
  PAIRS_TABLE,
  fillPairs,
  pairsMissing,
  pairsStatement,
  stalePairTables,
} from './word-pairs.js';
import { listingMissing, upgradeListing } from './sqlite-list-migration.js';
import {
  messageConversationsMissing,
  upgradeMessageConversations,
} from './message-conversations.js';
import {
  CONVERSATION_STEMS,
  CONVERSATION_WORDS,
  conversationWordsMissing,
  segmentDaysKept,
  upgradeSegmentDays,
} from './conversation-words.js';
import { upgradeConversationWords } from './conversation-words-writer.js';
import { columnsOf, quote, schemaStatements, typesOf } from './sqlite-schema.js';
import { SqliteMemories } from './sqlite-memories.js';
import { SqliteVectors } from './sqlite-vectors.js';
import { backfillTokenCounts, createUsageIndexes } from './sqlite-token-counts.js';
import { ColumnRow, sqliteRows, tableNames } from './sqlite-rows.js';

/**
 * The diagnostics channel told before a writable open builds full-text tables again (a store
 * made by an older version): `{ file, tables, messages }`.
 */
export const STORE_REBUILD_CHANNEL = 'chatgraph:store-rebuild';
const storeRebuilds = channel(STORE_REBUILD_CHANNEL);

/** The settings of a connection that writes. */
export function configureWritable(db: Database.Database): void {
  // Replaced and deleted rows are overwritten, not left in free pages: a conversation
  // re-imported with --redact, or deleted, leaves none of its old bytes in the file.
  db.pragma('secure_delete = ON');
  // 8 KB pages suit rows of chat text (set before WAL, which fixes the page size).
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // Keys are random UUIDs: with SQLite's 2 MB default cache every index insert went to disk.
  // 16 MB rather than 128: the 200 MB export imported with the same CPU time and a peak RSS
  // 127 MB lower (bench/import.mjs; docs/performance.md).
  db.pragma('cache_size = -16384');
  db.pragma('temp_store = MEMORY');
  // Checkpoint the WAL every 64 MB rather than 4 MB: fewer, larger copies during an import.
  db.pragma('wal_autocheckpoint = 16384');
}

/**
 * Creates the tables of this version and brings an older store up to date in place: new
 * property columns, message and token counts, the full-text indexes (re-tokenized when `retokenize`),
 * the listing's indexes and previews, each message's conversation number.
 */
export function migrate(db: Database.Database, retokenize: boolean, encrypted = false): void {
  const missing = fullTextMissing(db);
  const noStems = stemsMissing(db);
  const stems = stemsStatement();
  // The stemmed table is made below with its rows, in one transaction: made apart, a kill
  // before the fill would leave it empty, and an empty table is never filled again.
  for (const statement of schemaStatements()) if (statement !== stems) db.exec(statement);
  SqliteVectors.createSchema(db);
  SqliteMemories.createSchema(db);
  addMissingColumns(db);
  // Each message's conversation number, for exact counts of conversations (a store made
  // before them: filled once, 11 s at a million messages, see docs/performance.md). Before
  // the stems are filled: their writer numbers the messages it is given.
  upgradeMessageConversations(db);
  backfillMessageCounts(db);
  createUsageIndexes(db);
  backfillTokenCounts(db);
  const rebuilt = retokenize ? fullTextOutdated(db) : [];
  if (rebuilt.length > 0) announceRebuild(db, rebuilt);
  journalsOnDisk(db, rebuilt.length > 0 && !encrypted, () => {
    upgradeFullText(db, retokenize, missing);
    // A store made before stemming: its messages stemmed once (needs the language detector).
    if (noStems)
      db.transaction(() => {
        db.exec(stems);
        fillStems(db);
      })();
    else if (rebuilt.includes(STEMS_TABLE)) rebuildStems(db);
    else db.exec(stems);
  });
  upgradeListing(db);
  // Pairs of very common words, for their phrases (a store made before them: filled once, at
  // a writable open, like a rebuild; until then its phrases are read from message_fts, and a
  // store opened to be read is not kept waiting a minute a million messages for them).
  if (retokenize) upgradePairs(db);
  // Each conversation's words, for exact counts (a store made before them: filled once, after
  // the numbers and the stems it is made from).
  upgradeConversationWords(db);
  // Their segments' first and last days, for counts with a date bound (a store made before
  // them: read from the messages' days once).
  upgradeSegmentDays(db);
  // The same for the search indexes: FTS5 otherwise keeps a deleted row's words until a merge.
  for (const table of [
    ...FULL_TEXT.map((t) => t.table),
    STEMS_TABLE,
    PAIRS_TABLE,
    CONVERSATION_WORDS,
    CONVERSATION_STEMS,
  ])
    db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('secure-delete', 1)`);
  setPendingSize(db);
}

/**
 * Runs `step` with SQLite's temporary files (a statement's journal) on disk when `onDisk`. A
 * full-text table rebuilt in place is dropped inside the rebuild's transaction, and with
 * `secure_delete` every freed page is overwritten, its old content kept in the statement's
 * journal: in memory (`temp_store = MEMORY`) that was 700 MB at a million messages, against
 * 68 MB with the journal on disk (docs/performance.md, ninth pass). An encrypted store keeps its
 * journals in memory: SQLite's temporary files are not encrypted.
 */
function journalsOnDisk(db: Database.Database, onDisk: boolean, step: () => void): void {
  if (!onDisk) {
    step();
    return;
  }
  db.pragma('temp_store = FILE');
  try {
    step();
  } finally {
    db.pragma('temp_store = MEMORY');
  }
}

/** FTS5's pending terms held in memory before a table writes them out as a segment. */
const PENDING_BYTES = 8 * 1024 * 1024;

/**
 * Each full-text table holds up to {@link PENDING_BYTES} of pending terms (FTS5's `hashsize`,
 * 1 MB by default) before it writes a segment, so a large import writes fewer, larger level-0
 * segments and merges them less: replaying the 200 MB export's messages into message_fts alone
 * took 4.1–4.6 CPU-seconds instead of 5.6–6.1, and left 6 segments instead of 8 for a search to
 * read (docs/performance.md, import, third pass). A larger `automerge` saved as much but left
 * 20 segments. Stored in each table's config; set at every writable open, like secure-delete.
 * Each commit writes the pending terms out whatever their size, so an import's groups stay open
 * up to 10 s (SqliteStore), not 3: in 40 commits the same replay took 5.2–5.6 CPU-seconds with
 * or without the larger hash; readers see an import's conversations up to 10 s later.
 */
function setPendingSize(db: Database.Database): void {
  for (const table of [...FULL_TEXT.map((t) => t.table), STEMS_TABLE, PAIRS_TABLE])
    db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('hashsize', ${PENDING_BYTES})`);
}

/**
 * Tells whoever listens on {@link STORE_REBUILD_CHANNEL} (the CLI, which says so on stderr)
 * that full-text tables are about to be built again, and over how many messages: about a
 * minute a million messages, once, before the command goes on.
 */
function announceRebuild(db: Database.Database, tables: string[]): void {
  if (!storeRebuilds.hasSubscribers) return;
  const messages = Number(db.prepare(`SELECT max(rowid) FROM "Message"`).pluck().get() ?? 0);
  storeRebuilds.publish({ file: db.name, tables, messages });
}

/**
 * Makes the pairs table (word-pairs.ts) with its rows in one transaction: a kill part-way
 * leaves none, and the next writable open fills it. A store with messages is announced as a
 * rebuild (about 60 CPU-seconds at a million messages, docs/performance.md eleventh pass).
 */
function upgradePairs(db: Database.Database): void {
  const stale = stalePairTables(db);
  if (!pairsMissing(db) && stale.length === 0) return;
  const messages = db.prepare(`SELECT EXISTS (SELECT 1 FROM "Message")`).pluck().get() === 1;
  if (messages && pairsMissing(db)) announceRebuild(db, [PAIRS_TABLE]);
  db.transaction(() => {
    // Made with another word list or cutting (see PAIRS_TABLE): its pairs are not today's.
    for (const table of stale) db.exec(`DROP TABLE "${table}"`);
    if (!pairsMissing(db)) return;
    db.exec(pairsStatement());
    fillPairs(db);
  })();
}

// A store made before message_counts existed: count its messages once.
function backfillMessageCounts(db: Database.Database): void {
  const empty = db.prepare(`SELECT NOT EXISTS (SELECT 1 FROM message_counts)`).pluck().get();
  const messages = db.prepare(`SELECT EXISTS (SELECT 1 FROM "Message")`).pluck().get();
  if (empty === 1 && messages === 1) {
    db.exec(
      `INSERT INTO message_counts (owner, month, role, model, messages)
       SELECT owner, coalesce(substr(created_at, 1, 7), ''), coalesce(role, ''), coalesce(model_slug, ''), count(*)
       FROM "Message" WHERE owner IS NOT NULL GROUP BY 1, 2, 3, 4`,
    );
  }
}

function columnNames(db: Database.Database, label: string): Set<string> {
  return new Set(
    sqliteRows(ColumnRow, db.prepare(`PRAGMA table_info(${quote(label)})`).all(), 'column').map(
      (c) => c.name,
    ),
  );
}

// A store made by an older version lacks the properties added since: add them (empty).
function addMissingColumns(db: Database.Database): void {
  for (const label of LABEL_NAMES) {
    const have = columnNames(db, label);
    const types = typesOf(label);
    for (const column of columnsOf(label)) {
      if (!have.has(column)) {
        db.exec(
          `ALTER TABLE ${quote(label)} ADD COLUMN ${quote(column)} ${types[column] === 'string' ? 'TEXT' : 'INTEGER'}`,
        );
      }
    }
  }
}

/** Whether a store file lacks a table or a property column of this version. */
export function outdated(file: string, key?: string): boolean {
  const db = openReadonly(file, key);
  try {
    return outdatedIn(db);
  } finally {
    db.close();
  }
}

/** {@link outdated}, asked of an open connection. */
function outdatedIn(db: Database.Database): boolean {
  const tables = new Set(tableNames(db));
  if (!tables.has('message_counts') || fullTextMissing(db).length > 0) return true;
  if (!tables.has('token_counts')) return true;
  if (stemsMissing(db)) return true;
  if (tables.has('Message') && messageConversationsMissing(db)) return true;
  if (tables.has('Message') && conversationWordsMissing(db)) return true;
  if (tables.has('Message') && !segmentDaysKept(db)) return true;
  if (tables.has('Conversation') && listingMissing(db)) return true;
  if (tables.has('vector_unit') && !columnNames(db, 'vector_unit').has('q8')) return true;
  return LABEL_NAMES.some((label) => {
    const have = columnNames(db, label);
    return columnsOf(label).some((column) => !have.has(column));
  });
}

/**
 * A read-only connection to the file when it has this version's schema, checked on it (a second
 * connection to check cost 10 ms warm, ~50 ms cold: issue 46); undefined when it is outdated.
 */
export function openIfCurrent(file: string, key?: string): Database.Database | undefined {
  const db = openReadonly(file, key);
  try {
    if (!outdatedIn(db)) return db;
  } catch (error) {
    db.close();
    throw error;
  }
  db.close();
  return undefined;
}

/** Whether opening the file will bring it up to date: it exists and an older version made it. */
export function needsUpgrade(file: string, key?: string): boolean {
  try {
    return existsSync(file) && !isEmptyFile(file) && outdated(file, key);
  } catch {
    // A damaged file: opening it reports that.
    return false;
  }
}
