import { existsSync } from 'node:fs';
import { prepareFolder } from '../at-rest/unlock.js';
import type { Neo4jTarget } from '../stores/neo4j/neo4j-target.js';
import { StoreConnectionError, type Store } from '../stores/store.js';
import { preloadLanguageDetector } from '../search/language-detection.js';
import { asStoreDamage, reportingDamage } from '../stores/sqlite/store-damage.js';

/** Which store: the data folder's embedded one (its file), or a Neo4j server. */
export interface StoreChoice {
  dir: string;
  file: string;
  /** Use this Neo4j server instead of the embedded store. */
  neo4j?: Neo4jTarget | undefined;
}

/**
 * Opens the chosen store. For reading, the embedded store must exist (nothing imported yet is
 * a StoreConnectionError); a Neo4j server is connected to and checked before anything else.
 * Each store's code (SQLite and Grafeo, or the Neo4j driver) is loaded here, when first
 * opened, so importing chatgraph for conversion alone loads neither.
 */
export async function openStore(
  choice: StoreChoice,
  options: { readonly?: boolean } = {},
): Promise<Store> {
  if (choice.neo4j) {
    const { Neo4jStore } = await import('../stores/neo4j/neo4j-store.js');
    return Neo4jStore.open(choice.neo4j);
  }
  // An encrypted folder's key is opened (asked for).
  await prepareFolder(choice.dir);
  const { file } = choice;
  if (options.readonly && !existsSync(file)) {
    throw new StoreConnectionError(
      `nothing is imported in ${choice.dir} yet: run "chatgraph import <export>" first (or give --data-dir)`,
    );
  }
  const { SqliteStore } = await import('../stores/sqlite/sqlite-store.js');
  // An old store's upgrade stems its messages in a synchronous transaction, in the languages
  // eld tells: its data is loaded first (0.4 s; writers load it when a conversation needs it).
  if (SqliteStore.needsUpgrade(file)) await preloadLanguageDetector();
  let store: Store;
  try {
    store = SqliteStore.open(file, { readonly: options.readonly ?? false });
  } catch (error) {
    throw asStoreDamage(error, file);
  }
  return reportingDamage(store, file);
}
