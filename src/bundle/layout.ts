import { join, resolve, sep } from 'node:path';
import { ATTACHMENTS_DIR } from '../model/attachment-refs.js';

/** Where things live in a PAM bundle. */
export const MEMORY_STORE_FILE = 'memory-store.json';
export const CONVERSATIONS_DIR = 'conversations';
export { ATTACHMENTS_DIR };

/** The bundle-relative path of a conversation file (the index's `storage.ref`). */
export function conversationRef(id: string): string {
  return `${CONVERSATIONS_DIR}/${id}.json`;
}

/** The absolute path of a conversation file. */
export function conversationPath(bundle: string, id: string): string {
  return join(bundle, CONVERSATIONS_DIR, `${id}.json`);
}

/**
 * Where an attachment's bundle-relative ref (`attachments/…`) is on disk, or undefined when it
 * points outside the bundle's attachments folder: a ref is data from an export or a request, and
 * nothing else of the disk is read, served or removed through one.
 */
export function attachmentFile(bundle: string, ref: string): string | undefined {
  const root = resolve(bundle, ATTACHMENTS_DIR);
  const path = resolve(bundle, ref);
  return path.startsWith(root + sep) ? path : undefined;
}
