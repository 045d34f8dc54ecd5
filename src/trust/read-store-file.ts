import type { Bundle } from '../bundle/bundle.js';
import { MemoryStoreError } from '../bundle/memory-schema.js';
import { parseStoreText } from '../bundle/read-memory-store.js';
import { z } from 'zod';
import { signedStoreSchema, type SignedStore } from './bundle-signature.js';

/** `memory-store.json` as JSON (to write back as it was) and as what signing reads of it. */
export async function readStoreFile(
  bundle: Bundle,
): Promise<{ json: Record<string, unknown>; store: SignedStore }> {
  const file = bundle.layout.memoryStore;
  let text: string;
  try {
    text = (await bundle.files.read(file)).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new MemoryStoreError(`${file} is missing: the bundle has no memory store yet`);
    throw error;
  }
  const store = parseStoreText(file, text, signedStoreSchema);
  // The file's own keys in its own order, to write back unchanged but for what is set.
  return { json: z.record(z.unknown()).parse(JSON.parse(text)), store };
}
