import type { SearchHere } from './search-here.js';
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { openDatabase } from '../../at-rest/open-database.js';

/** How the embedded store is opened beyond its file. */
export interface SqliteStoreOptions {
  /** For reading only (at once; the file must exist). */
  readonly?: boolean | undefined;
  /** The SQLCipher key of an encrypted data folder's store. */
  key?: string | undefined;
  /**
   * Where its binary vector index is saved for the next process (the data folder names it);
   * none: built from the rows by each process.
   */
  vectorIndexFile?: string | undefined;
  /** Keyword searches run in this thread, not in child processes (a one-shot command). */
  searchHere?: SearchHere | undefined;
}

/**
 * The page cache of a connection opened for reading, in KiB (SQLite's `cache_size` when
 * negative): 32 MiB where SQLite's default is 2. A search's count seeks each match's
 * conversation number in `message_conversation` (24 MB at a million messages) by scattered
 * rowid; in 2 MB its pages kept leaving the cache (issue 46, twelfth pass: 54,292 seeks of
 * `ingress budget` 23 → 17.7 ms; 64 and 128 MiB gave the same). The cache grows only as pages are
 * read, so a one-shot search of a small store stays small; through an encrypted store's codec it
 * also keeps pages decrypted. (`mmap_size` was measured too and added nothing: the pages are in the
 * OS cache already, and the cipher's codec reads through the page cache anyway.)
 */
export const READ_CACHE_KIB = 32 * 1024;

/**
 * Opens a store file for reading. A store in WAL mode needs its `-shm` file, which SQLite
 * cannot create in a read-only folder (a backup, a read-only mount): there the file is read
 * into memory instead (its WAL mode cleared in that copy), so reads still work.
 */
export function openReadonly(file: string, key: string | undefined): Database.Database {
  const db = openDatabase(file, key, { readonly: true, fileMustExist: true });
  try {
    // The -shm file is opened at the first read, not at open.
    db.prepare(`SELECT count(*) FROM sqlite_master`).get();
    db.pragma(`cache_size = -${READ_CACHE_KIB}`);
    return db;
  } catch (error) {
    // An encrypted store's image cannot be opened from memory: its error stands.
    if (
      (error as { code?: unknown }).code !== 'SQLITE_CANTOPEN' ||
      writable(dirname(file)) ||
      key !== undefined
    )
      throw error;
    db.close();
  }
  const image = readFileSync(file);
  // Bytes 18 and 19 of the header are the write and read versions: 2 is WAL, 1 is rollback.
  if (image.length >= 20 && image[18] === 2 && image[19] === 2) {
    image[18] = 1;
    image[19] = 1;
  }
  const inMemory = new Database(image, { readonly: true });
  inMemory.pragma(`cache_size = -${READ_CACHE_KIB}`);
  return inMemory;
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
