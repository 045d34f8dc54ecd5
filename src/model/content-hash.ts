import { createHash } from 'node:crypto';

// Python's str.split() whitespace, which the PAM reference normalisation uses; JS `\s` differs
// at the edges (U+FEFF, U+001C–U+001F, U+0085), see pam-notes.md §6.1.
const PY_WHITESPACE =
  // eslint-disable-next-line no-control-regex -- U+001C–U+001F are whitespace to Python.
  /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
const EDGE =
  // eslint-disable-next-line no-control-regex -- as above.
  /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** The PAM `content_hash` of a memory's content (spec §6: trim, lower, NFC, collapse spaces). */
export function contentHash(content: string): string {
  const normalized = content
    .replace(EDGE, '')
    .toLowerCase()
    .normalize('NFC')
    .replace(PY_WHITESPACE, ' ');
  return `sha256:${createHash('sha256').update(normalized, 'utf8').digest('hex')}`;
}

/** `sha256:<hex>` of bytes or text. */
export function sha256(data: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}
