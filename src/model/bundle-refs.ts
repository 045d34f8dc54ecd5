/**
 * The refs a PAM bundle's own files hold: bundle-relative paths, part of the format (the
 * index's `storage.ref`, an attachment's `ref`). Shared by the read side (the asset index names
 * the refs of an export's files), the pure conversion (an index entry's ref) and the bundle
 * (which writes them), so none depends on another; the data folder's layout
 * (`folder/layout.ts`) turns them into paths.
 */

/** Where a PAM bundle keeps attachments, as bundle-relative refs. */
export const ATTACHMENTS_DIR = 'attachments';

/** Attachment text an export holds inline (see `bundle/inline-text.ts`). */
export const INLINE_TEXT_DIR = `${ATTACHMENTS_DIR}/text`;

/** Where a PAM bundle keeps its conversation files. */
export const CONVERSATIONS_DIR = 'conversations';

/** The bundle-relative ref of a conversation's file (the index's `storage.ref`). */
export function conversationRef(id: string): string {
  return `${CONVERSATIONS_DIR}/${id}.json`;
}
