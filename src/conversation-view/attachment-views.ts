import type { Attachment } from '../model/pam.js';
import type { ThreadAttachment } from '../stores/store.js';

/** An attachment as the web app draws it: the bundle's PAM fields, and its text when known. */
export interface AttachmentView {
  type: string;
  name: string | null;
  mime_type: string | null;
  size_bytes: number | null;
  ref: string | null;
  /** Pasted or extracted text (from the graph's Attachment node); null for other files. */
  text: string | null;
}

/**
 * A message's attachments for the browser: the bundle's PAM attachments (`pam`, undefined when
 * the bundle lacks the conversation) with the text the graph holds for each (`stored`, in the
 * same order, as `project` numbers them); the graph's alone when the bundle has none.
 */
export function attachmentViews(
  pam: readonly Attachment[] | undefined,
  stored: readonly ThreadAttachment[],
): AttachmentView[] {
  if (pam === undefined) {
    return stored.map((a) => ({
      type: a.text !== null ? 'document' : 'file',
      name: a.name,
      mime_type: a.mimeType,
      size_bytes: a.sizeBytes,
      ref: a.ref,
      text: a.text,
    }));
  }
  return pam.map((a, n) => {
    const same = stored[n]?.ref === a.ref ? stored[n] : stored.find((s) => s.ref === a.ref);
    return {
      type: a.type,
      name: a.name,
      mime_type: a.mime_type,
      size_bytes: a.size_bytes,
      ref: a.ref,
      text: a.ref !== null ? (same?.text ?? null) : null,
    };
  });
}
