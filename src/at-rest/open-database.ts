import Database from 'better-sqlite3-multiple-ciphers';
import { applyKey } from './sqlite-key.js';

/** `new Database(file, options)`, with its folder's SQLCipher key when the folder is encrypted. */
export function openDatabase(
  file: string,
  key: string | undefined,
  options?: Database.Options,
): Database.Database {
  const db = new Database(file, options);
  try {
    applyKey(db, key);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/**
 * Rewrites an unopened copy of a SQLite file from one key to another (`undefined`: plain), in
 * place: rollback journal while rekeying (SQLCipher cannot rekey in WAL mode), WAL again after.
 */
export function rekeyFile(file: string, from: string | undefined, to: string | undefined): void {
  const db = new Database(file);
  try {
    applyKey(db, from);
    const journal = String(db.pragma('journal_mode', { simple: true }));
    db.pragma('journal_mode = DELETE');
    if (to === undefined) db.pragma(`rekey = ''`);
    else {
      if (from === undefined) db.pragma(`cipher = 'sqlcipher'`);
      db.pragma(`rekey = "x'${to}'"`);
    }
    if (journal === 'wal') db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
}
