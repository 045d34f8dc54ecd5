/**
 * Where a PAM bundle keeps attachments, as bundle-relative refs. Shared by the read side (the
 * asset index names the refs of an export's files) and the bundle (which writes them), so
 * neither depends on the other.
 */
export const ATTACHMENTS_DIR = 'attachments';

/** Attachment text an export holds inline (see `bundle/inline-text.ts`). */
export const INLINE_TEXT_DIR = `${ATTACHMENTS_DIR}/text`;
