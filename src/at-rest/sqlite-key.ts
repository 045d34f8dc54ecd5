// The type alone: importing chatgraph loads no SQLite until a store opens (see open-database).
import type Database from 'better-sqlite3-multiple-ciphers';

/*
 * An encrypted data folder's SQLite files (the index, the vector cache, the live state) are
 * opened with its SQLCipher key, which the folder's handle holds (in memory only) and hands to
 * whatever opens one. A store's child processes (search, Cypher) get it in their environment,
 * under {@link CHILD_KEY_VARIABLE}, which they read once and clear.
 */

/** The variable a child process's key arrives in (the key, never the passphrase). */
export const CHILD_KEY_VARIABLE = 'CHATGRAPH_CHILD_SQLITE_KEY';

/** In a store's child process, the key its parent gave it (undefined: a plain folder, or not a child). */
export const childKey: string | undefined = process.env.CHATGRAPH_CHILD_SQLITE_KEY;
// Not passed on further: a grandchild gets it again only where this process gives it.
delete process.env.CHATGRAPH_CHILD_SQLITE_KEY;

const RAW_KEY = /^[0-9a-f]{64}$/;

/** The environment a child process that opens a store starts with: the key, when there is one. */
export function childEnvironment(key: string | undefined): NodeJS.ProcessEnv {
  return key === undefined ? process.env : { ...process.env, [CHILD_KEY_VARIABLE]: key };
}

/** Sets the key on a just-opened connection, before its first read (SQLCipher's scheme, a raw key: no KDF per open). */
export function applyKey(db: Database.Database, hexKey: string | undefined): void {
  if (hexKey === undefined) return;
  if (!RAW_KEY.test(hexKey)) throw new Error('a SQLCipher raw key is 64 hex digits');
  db.pragma(`cipher = 'sqlcipher'`);
  db.pragma(`key = "x'${hexKey}'"`);
}
