import type Database from 'better-sqlite3-multiple-ciphers';
import { plural, thousands } from '../model/plural.js';
import { sqlHoldsText } from '../stores/sqlite/sqlite-white-space.js';
import { fix, note, ok, type DoctorCheck } from './check.js';

/** What the store's own checks need from the caller: how to write the commands that fix things. */
export interface StoreCheckContext {
  /** Appended to the store commands it suggests (`--data-dir …` when the folder was a flag). */
  flags: string;
}

/**
 * SQLite's check of every page, as `chatgraph reindex` would see it. SQLite 3.44 and later also
 * run FTS5's check inside it: those findings are left to {@link fullTextCheck}'s line.
 */
export function pageCheck(db: Database.Database, context: StoreCheckContext): DoctorCheck {
  let found: string[];
  try {
    found = db
      .prepare('PRAGMA quick_check(20)')
      .pluck()
      .all()
      .map((row) => String(row));
  } catch (error) {
    found = [error instanceof Error ? error.message : String(error)];
  }
  const pages = found.filter((line) => line !== 'ok' && !line.startsWith('fts5:'));
  if (pages.length === 0) return ok('store', 'SQLite quick_check ok');
  return fix(
    'store',
    `SQLite quick_check: ${pages.join('; ')}`,
    `chatgraph reindex${context.flags}`,
  );
}

/** The FTS5 tables of the store, by their CREATE statements. */
function fullTextTables(db: Database.Database): string[] {
  return db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5(%' ORDER BY name`,
    )
    .pluck()
    .all()
    .filter((name): name is string => typeof name === 'string');
}

/**
 * FTS5's own `integrity-check` of each full-text table (for external-content tables it also
 * compares the index with the rows it indexes), which `quick_check` does not look into.
 */
export function fullTextCheck(db: Database.Database, context: StoreCheckContext): DoctorCheck {
  const tables = fullTextTables(db);
  const damaged: string[] = [];
  for (const table of tables) {
    try {
      db.exec(`INSERT INTO "${table}" ("${table}") VALUES ('integrity-check')`);
    } catch (error) {
      damaged.push(`${table} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (damaged.length === 0) return ok('full-text index', `${tables.join(', ')} intact`);
  return fix(
    'full-text index',
    `damaged: ${damaged.join(', ')}`,
    `chatgraph reindex${context.flags}`,
  );
}

const count = (db: Database.Database, sql: string): number => Number(db.prepare(sql).pluck().get());

const hasTable = (db: Database.Database, name: string): boolean =>
  db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(name) !==
  undefined;

/** The model the store's vectors were made with, when there are any. */
export function indexedModel(db: Database.Database): string | undefined {
  if (!hasTable(db, 'meta')) return undefined;
  const id: unknown = db.prepare(`SELECT value FROM meta WHERE key = 'vector_model'`).pluck().get();
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Messages embedded of those with text, and conversations waiting for `chatgraph embed`. */
export function embeddingCheck(db: Database.Database, context: StoreCheckContext): DoctorCheck {
  const messages = count(db, `SELECT count(*) FROM "Message" WHERE ${sqlHoldsText('content')}`);
  const embed = `chatgraph embed${context.flags}`;
  if (!hasTable(db, 'vector_unit') || indexedModel(db) === undefined)
    return note(
      'embeddings',
      `none (search by meaning needs them; ${plural(messages, 'message')})`,
      embed,
    );
  // Of those messages: a folder embedded before white space was told apart from text keeps
  // vectors of blank messages until they change, and they are not counted as embedded.
  const embedded = count(
    db,
    `SELECT count(DISTINCT v.node_id) FROM vector_unit v JOIN "Message" m ON m.id = v.node_id
     WHERE v.kind = 'message' AND ${sqlHoldsText('m.content')}`,
  );
  const pending = count(
    db,
    `SELECT count(*) FROM conversation_state s JOIN "Conversation" c ON c.id = s.id
     LEFT JOIN vector_state v ON v.owner = s.id
     WHERE v.content_hash IS NULL OR v.content_hash <> s.content_hash`,
  );
  const share = `${thousands(embedded)} of ${plural(messages, 'message')} embedded`;
  if (pending === 0) return ok('embeddings', share);
  return fix(
    'embeddings',
    `${share}; ${plural(pending, 'conversation')} new or changed since`,
    embed,
  );
}

/** The vector index saved beside the store (a cache: rebuilt from the rows when missing). */
export function vectorIndexCheck(
  db: Database.Database,
  indexFile: boolean | 'encrypted',
): DoctorCheck {
  const model = indexedModel(db);
  if (model === undefined) return ok('vector index', 'none (nothing embedded)');
  const units = count(db, `SELECT count(*) FROM vector_unit`);
  const detail = `${plural(units, 'vector')} of ${model}`;
  // An encrypted folder's is never saved (it would be a readable digest): built in memory.
  if (indexFile === 'encrypted')
    return ok('vector index', `${detail}, built in memory by each process (encrypted folder)`);
  return indexFile
    ? ok('vector index', `${detail}, saved beside the store`)
    : ok('vector index', `${detail} (not saved yet: the next search by meaning saves it)`);
}
