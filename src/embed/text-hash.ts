import { createHash } from 'node:crypto';

/** The key of a text in the vector cache: the sha256 of its UTF-8 bytes, in hex. */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
