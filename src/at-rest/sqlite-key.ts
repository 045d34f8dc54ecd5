import { dirname, resolve } from 'node:path';
// The type alone: importing chatgraph loads no SQLite until a store opens (see open-database).
import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * The SQLCipher keys of encrypted data folders this process has unlocked, by folder: every
 * SQLite file in such a folder (the index, the vector cache, the live state) is opened with it.
 * In memory only. A store's child processes (search, Cypher) get it over a pipe, their stdin
 * ({@link childKeyOf}, {@link receiveChildKey}), never in their environment, which any process
 * of the same user can read (`/proc/<pid>/environ`) for the child's whole life.
 */
const keys = new Map<string, string>();

/** The argument that tells a child process its key comes on its stdin. */
export const KEY_ON_STDIN = '--key-on-stdin';

// This process's key when it is such a child (given by its parent over the pipe).
let childKey: string | undefined;

// Secrets a store's child has no use for, left out of its environment: the passphrase (which
// opens the folder key for as long as the child lives) and a Neo4j password.
const NOT_FOR_CHILDREN = [
  'CHATGRAPH_PASSPHRASE',
  'CHATGRAPH_CHILD_SQLITE_KEY',
  'NEO4J_PASSWORD',
  'NEO4J_URI',
];

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

/** The environment a child process that opens `file` starts with: this one's, its secrets left out. */
export function childEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !NOT_FOR_CHILDREN.includes(name)),
  );
}

/**
 * How a child process that opens `file` is started: its arguments (with {@link KEY_ON_STDIN}
 * when it is to read a key), its environment (secrets left out) and its stdin (a pipe for the
 * key); `handOver` writes the key into that pipe and closes it, once spawned.
 */
export function childStart(file: string): {
  args: string[];
  env: NodeJS.ProcessEnv;
  stdin: 'pipe' | 'ignore';
  handOver: (child: { stdin: NodeJS.WritableStream | null }) => void;
} {
  const key = sqliteKeyFor(file);
  return {
    args: key === undefined ? [] : [KEY_ON_STDIN],
    env: childEnvironment(),
    stdin: key === undefined ? 'ignore' : 'pipe',
    handOver: (child) => {
      if (key === undefined) return;
      // A child that died at once closes the pipe: that is its own error, said where it exits.
      child.stdin?.on('error', () => undefined);
      child.stdin?.end(`${key}\n`);
    },
  };
}

/**
 * In a store's child process: reads the key its parent wrote on stdin, when started with
 * {@link KEY_ON_STDIN}, before it opens the store. Kept in memory only.
 */
export async function receiveChildKey(): Promise<void> {
  if (!process.argv.includes(KEY_ON_STDIN)) return;
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin as AsyncIterable<string>) text += chunk;
  const key = text.trim();
  if (!RAW_KEY.test(key)) throw new Error('the key given on stdin is not a SQLCipher raw key');
  childKey = key;
}

/** Sets the key on a just-opened connection, before its first read (SQLCipher's scheme, a raw key: no KDF per open). */
export function applyKey(db: Database.Database, hexKey: string | undefined): void {
  if (hexKey === undefined) return;
  db.pragma(`cipher = 'sqlcipher'`);
  db.pragma(`key = "x'${hexKey}'"`);
}
