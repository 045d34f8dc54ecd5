import { join } from 'node:path';
import type { Bundle } from './bundle.js';
import { isInlineTextRef } from './inline-text.js';

/**
 * The text behind an inline attachment ref, read from a bundle's `attachments/text/` (for
 * `project`'s `attachmentText` at reindex and push). Refs elsewhere (copied images, files) and
 * missing files give undefined: their Attachment nodes have no content.
 */
export function inlineTextReader(bundle: Bundle): (ref: string) => string | undefined {
  return (ref) => {
    if (!isInlineTextRef(ref)) return undefined;
    return bundle.files.readTextSync(join(bundle.dir, ref));
  };
}
