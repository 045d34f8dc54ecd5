import { readFile } from 'node:fs/promises';
import { MemoryStoreError } from '../bundle/memory-schema.js';
import { z } from 'zod';
import { signedStoreSchema, type SignedStore } from './bundle-signature.js';

/** `memory-store.json` as JSON (to write back as it was) and as what signing reads of it. */
export async function readStoreFile(
  file: string,
): Promise<{ json: Record<string, unknown>; store: SignedStore }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new MemoryStoreError(`${file} is missing: the bundle has no memory store yet`);
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MemoryStoreError(
      `${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = signedStoreSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MemoryStoreError(
      `${file} is not a PAM memory store (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'bad shape'})`,
    );
  }
  // The file's own keys in its own order, to write back unchanged but for what is set.
  return { json: z.record(z.unknown()).parse(json), store: parsed.data };
}
