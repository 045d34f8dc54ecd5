import type { SearchHere } from '../stores/sqlite/search-here.js';
import { existsSync } from 'node:fs';
import type { Neo4jTarget } from '../stores/neo4j/neo4j-target.js';
import { StoreConnectionError, type Store } from '../stores/store.js';
import { preloadLanguageDetector } from '../search/language-detection.js';
import {
  asStoreDamage,
  reportingDamage,
  type SwitchedUnder,
} from '../stores/sqlite/store-damage.js';

/** Which store: the data folder's embedded one (its file, and its key when encrypted), or a Neo4j server. */
export interface StoreChoice {
  dir: string;
  file: string;
  /** The folder's bundle, from which a missing index is rebuilt. */
  bundle?: string;
  /** Why the store reads as no database, when the folder's encryption was switched under it. */
  switchedUnder?: SwitchedUnder;
  /** The SQLCipher key of an encrypted folder's store. */
  key?: string | undefined;
  /** Use this Neo4j server instead of the embedded store. */
  neo4j?: Neo4jTarget | undefined;
}

/**
 * Opens the chosen store (the folder's handle opens it: `Folder.openStore`). For reading, the
 * embedded store must exist (nothing imported yet is a StoreConnectionError); a Neo4j server is
 * connected to and checked before anything else. Each store's code (SQLite and Grafeo, or the
 * Neo4j driver) is loaded here, when first opened, so importing chatgraph for conversion alone
 * loads neither.
 */
export async function openStore(
  choice: StoreChoice,
  options: { readonly?: boolean; vectorIndexFile?: string; searchHere?: SearchHere } = {},
): Promise<Store> {
  if (choice.neo4j) {
    const { Neo4jStore } = await import('../stores/neo4j/neo4j-store.js');
    return Neo4jStore.open(choice.neo4j);
  }
  const { file } = choice;
  if (options.readonly && !existsSync(file)) {
    // A bundle without its index (removed, or set aside): the index is rebuilt from it.
    if (choice.bundle !== undefined && existsSync(choice.bundle))
      throw new StoreConnectionError(
        `${choice.dir} has its bundle but no index (${file} is missing): run "chatgraph reindex" to rebuild it from the bundle`,
      );
    throw new StoreConnectionError(
      `nothing is imported in ${choice.dir} yet: run "chatgraph import <export>" first (or give --data-dir)`,
    );
  }
  const { SqliteStore } = await import('../stores/sqlite/sqlite-store.js');
  const storeOptions = {
    readonly: options.readonly ?? false,
    key: choice.key,
    // An encrypted folder's codes would be a readable digest of the chats beside it: not saved.
    vectorIndexFile: choice.key === undefined ? options.vectorIndexFile : undefined,
    searchHere: options.searchHere,
  };
  let store: Store | undefined;
  try {
    // Read-only, the schema is checked on the connection the store reads through (issue 46).
    if (storeOptions.readonly) store = SqliteStore.openCurrent(file, storeOptions);
  } catch (error) {
    throw asStoreDamage(error, file, choice.switchedUnder);
  }
  // An old store's upgrade stems its messages in a synchronous transaction, in the languages
  // eld tells: its data is loaded first (0.4 s; writers load it when a conversation needs it).
  if (!store && SqliteStore.needsUpgrade(file, choice.key)) await preloadLanguageDetector();
  try {
    store ??= SqliteStore.open(file, storeOptions);
  } catch (error) {
    throw asStoreDamage(error, file, choice.switchedUnder);
  }
  return reportingDamage(store, file, choice.switchedUnder);
}
