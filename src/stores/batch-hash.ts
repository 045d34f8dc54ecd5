import { createHash } from 'node:crypto';
import type { HashedBatch } from './store.js';

/** What tells a store a conversation is unchanged: the hash it was made from, else the batch's own. */
export function batchHash(batch: HashedBatch): string {
  return batch.hash ?? createHash('sha256').update(JSON.stringify(batch)).digest('hex');
}
