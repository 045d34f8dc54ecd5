import { join } from 'node:path';

/** Where things live in a PAM bundle. */
export const MEMORY_STORE_FILE = 'memory-store.json';
export const CONVERSATIONS_DIR = 'conversations';
export { ATTACHMENTS_DIR } from '../model/attachment-refs.js';

/** The bundle-relative path of a conversation file (the index's `storage.ref`). */
export function conversationRef(id: string): string {
  return `${CONVERSATIONS_DIR}/${id}.json`;
}

/** The absolute path of a conversation file. */
export function conversationPath(bundle: string, id: string): string {
  return join(bundle, CONVERSATIONS_DIR, `${id}.json`);
}
