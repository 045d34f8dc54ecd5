/**
 * White space is any character JavaScript's `\s` or Unicode's White_Space property names: tabs,
 * line breaks, no-break and ideographic spaces, NEL (U+0085), the byte-order mark (U+FEFF). A
 * text of nothing else has nothing to embed or index.
 */
const TEXT_CHARACTER = /[^\s\p{White_Space}]/u;

/** Whether `text` holds a character that is not white space. */
export function holdsText(text: string | null | undefined): boolean {
  return text !== null && text !== undefined && TEXT_CHARACTER.test(text);
}

/**
 * The white-space code points, for a store's query that must decide as {@link holdsText} does
 * (SQLite's `trim(x)` strips spaces alone: "\n\n" or "\t" was text to it).
 */
export const WHITE_SPACE_CODE_POINTS: readonly number[] = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004,
  0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];
