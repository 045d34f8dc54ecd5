// The type alone: importing chatgraph loads no SQLite until a store opens (see open-database).
import type Database from 'better-sqlite3-multiple-ciphers';

/*
 * An encrypted data folder's SQLite files (the index, the vector cache, the live state) are
 * opened with its SQLCipher key, which the folder's handle holds (in memory only) and hands to
 * whatever opens one. A store's child processes (search, Cypher) get it over a pipe, their stdin
 * ({@link childStart}, {@link receiveChildKey}), never in their environment, which any process
 * of the same user can read (`/proc/<pid>/environ`) for the child's whole life.
 */

/** The argument that tells a child process its key comes on its stdin. */
export const KEY_ON_STDIN = '--key-on-stdin';

// This process's key when it is such a child (given by its parent over the pipe).
let received: string | undefined;

// Secrets a store's child has no use for, left out of its environment: the passphrase (which
// opens the folder key for as long as the child lives) and a Neo4j password.
const NOT_FOR_CHILDREN = [
  'CHATGRAPH_PASSPHRASE',
  'CHATGRAPH_CHILD_SQLITE_KEY',
  'NEO4J_PASSWORD',
  'NEO4J_URI',
];

const RAW_KEY = /^[0-9a-f]{64}$/;

/** In a store's child process, the key its parent gave it (undefined: a plain folder, or not a child). */
export function childKey(): string | undefined {
  return received;
}

/** The environment a child process that opens a store starts with: this one's, its secrets left out. */
export function childEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !NOT_FOR_CHILDREN.includes(name)),
  );
}

/**
 * How a child process that opens a store with `key` (none: a plain folder) is started: its
 * arguments (with {@link KEY_ON_STDIN} when it is to read a key), its environment (secrets left
 * out) and its stdin (a pipe for the key); `handOver` writes the key into that pipe and closes
 * it, once spawned.
 */
export function childStart(key: string | undefined): {
  args: string[];
  env: NodeJS.ProcessEnv;
  stdin: 'pipe' | 'ignore';
  handOver: (child: { stdin: NodeJS.WritableStream | null }) => void;
} {
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
  received = key;
}

/** Sets the key on a just-opened connection, before its first read (SQLCipher's scheme, a raw key: no KDF per open). */
export function applyKey(db: Database.Database, hexKey: string | undefined): void {
  if (hexKey === undefined) return;
  if (!RAW_KEY.test(hexKey)) throw new Error('a SQLCipher raw key is 64 hex digits');
  db.pragma(`cipher = 'sqlcipher'`);
  db.pragma(`key = "x'${hexKey}'"`);
}
