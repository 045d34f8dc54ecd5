import type { Folder } from '../folder/folder.js';
import { embedStore } from '../recall/embed-store.js';
import type { Store } from '../stores/store.js';

/**
 * Embeds what a follower wrote, when the data folder has vectors (its model, as `embed` made
 * them): returns the chunks embedded (0 when it has none, so search stays by words).
 */
export async function embedNew(folder: Folder, store: Store): Promise<number> {
  if ((await store.vectors.model()) === undefined) return 0;
  const report = await embedStore(folder, {}, store);
  return report.embedded;
}
