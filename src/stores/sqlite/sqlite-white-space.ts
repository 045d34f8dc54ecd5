import { WHITE_SPACE_CODE_POINTS } from '../../model/white-space.js';

/**
 * SQL that is true when the text in `column` holds more than white space, as `holdsText` decides:
 * SQLite's one-argument `trim` strips spaces only, so a message of "\n\n" was text to it and got
 * a vector. The characters to strip are given to `trim` as one `char(…)` string.
 */
export function sqlHoldsText(column: string): string {
  return `trim(coalesce(${column}, ''), char(${WHITE_SPACE_CODE_POINTS.join(',')})) <> ''`;
}
