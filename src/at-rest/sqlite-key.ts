import { dirname, resolve } from 'node:path';
// The type alone: importing chatgraph loads no SQLite until a store opens (see open-database).
import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * The SQLCipher keys of encrypted data folders this process has unlocked, by folder: every
 * SQLite file in such a folder (the index, the vector cache, the live state) is opened with it.
 * In memory only. A store's child processes (search, Cypher) get it in their environment,
 * under {@link CHILD_KEY_VARIABLE}, which they read once and clear.
 */
const keys = new Map<string, string>();

/** The variable a child process's key arrives in (the key, never the passphrase). */
export const CHILD_KEY_VARIABLE = 'CHATGRAPH_CHILD_SQLITE_KEY';

const childKey = process.env.CHATGRAPH_CHILD_SQLITE_KEY;
// Not passed on further: a grandchild gets it again only where this process gives it.
delete process.env.CHATGRAPH_CHILD_SQLITE_KEY;

const RAW_KEY = /^[0-9a-f]{64}$/;

/** Files in `dataDir` are opened with this raw key (64 hex digits) from now on. */
export function useSqliteKey(dataDir: string, hexKey: string): void {
  if (!RAW_KEY.test(hexKey)) throw new Error('a SQLCipher raw key is 64 hex digits');
  keys.set(resolve(dataDir), hexKey);
}

/** Files in `dataDir` are plain again (it was just decrypted). */
export function dropSqliteKey(dataDir: string): void {
  keys.delete(resolve(dataDir));
}

/** The key `file` is opened with, if its folder is encrypted (or this is a child given one). */
export function sqliteKeyFor(file: string): string | undefined {
  return keys.get(resolve(dirname(file))) ?? childKey;
}

/** The environment a child process that opens `file` starts with: the key, when there is one. */
export function childEnvironment(file: string): NodeJS.ProcessEnv {
  const key = sqliteKeyFor(file);
  return key === undefined ? process.env : { ...process.env, [CHILD_KEY_VARIABLE]: key };
}

/** Sets the key on a just-opened connection, before its first read (SQLCipher's scheme, a raw key: no KDF per open). */
export function applyKey(db: Database.Database, hexKey: string | undefined): void {
  if (hexKey === undefined) return;
  db.pragma(`cipher = 'sqlcipher'`);
  db.pragma(`key = "x'${hexKey}'"`);
}
