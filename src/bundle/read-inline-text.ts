import { join } from 'node:path';
import { isInlineTextRef } from './inline-text.js';
import { readDataTextSync } from './sealed-files.js';

/**
 * The text behind an inline attachment ref, read from a bundle's `attachments/text/` (for
 * `project`'s `attachmentText` at reindex and push). Refs elsewhere (copied images, files) and
 * missing files give undefined: their Attachment nodes have no content.
 */
export function inlineTextReader(bundle: string): (ref: string) => string | undefined {
  return (ref) => {
    if (!isInlineTextRef(ref)) return undefined;
    return readDataTextSync(join(bundle, ref));
  };
}
