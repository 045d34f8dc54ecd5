import { homedir } from 'node:os';
import { join } from 'node:path';

/** The data folder: the option, then `CHATGRAPH_DATA_DIR`, then `$XDG_DATA_HOME/chatgraph`. */
export function resolveDataDir(option?: string): string {
  if (option) return option;
  const env = process.env.CHATGRAPH_DATA_DIR;
  if (env) return env;
  const xdg = process.env.XDG_DATA_HOME;
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.local', 'share'), 'chatgraph');
}

/** The PAM bundle inside a data folder (the record). */
export function bundleDir(dataDir: string): string {
  return join(dataDir, 'bundle');
}

/** The SQLite index inside a data folder. */
export function storeFile(dataDir: string): string {
  return join(dataDir, STORE_FILE);
}

/** The index (the embedded store). */
export const STORE_FILE = 'chatgraph.sqlite';
/** The vectors made, by text hash and model, so a reindex need not embed again. */
export const VECTOR_CACHE_FILE = 'vectors-cache.sqlite';
/** Where `watch` keeps how far it read each followed file. */
export const LIVE_STATE_FILE = 'live-state.sqlite';

/**
 * The folder's own SQLite databases, by their names at its top: `encrypt` and `decrypt` rekey
 * these (SQLCipher) and no other file, whatever its bytes. An attachment that is a SQLite
 * file is sealed like any file; a file dropped into an encrypted folder (`.DS_Store`, an
 * export) is not taken for one of them.
 */
export const FOLDER_DATABASES: readonly string[] = [STORE_FILE, VECTOR_CACHE_FILE, LIVE_STATE_FILE];
