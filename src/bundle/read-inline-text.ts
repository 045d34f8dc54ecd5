import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isInlineTextRef } from './inline-text.js';

/**
 * The text behind an inline attachment ref, read from a bundle's `attachments/text/` (for
 * `project`'s `attachmentText` at reindex and push). Refs elsewhere (copied images, files) and
 * missing files give undefined: their Attachment nodes have no content.
 */
export function inlineTextReader(bundle: string): (ref: string) => string | undefined {
  return (ref) => {
    if (!isInlineTextRef(ref)) return undefined;
    try {
      return readFileSync(join(bundle, ref), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
}
