import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `dir`, relative to it. */
export function filesOf(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * Which of `words` are found anywhere in any byte of any file under `dir` (SQLite files too).
 * Words of seven letters or more: a shorter one turns up by chance in megabytes of ciphertext.
 */
export function wordsFound(dir: string, words: readonly string[]): string[] {
  const found = new Set<string>();
  for (const file of filesOf(dir)) {
    const bytes = readFileSync(join(dir, file));
    const text = bytes.toString('latin1').toLowerCase();
    // UTF-16 too: SQLite may hold text so, and a word must not slip past as every other byte.
    const wide = bytes.toString('utf16le').toLowerCase();
    for (const word of words)
      if (text.includes(word.toLowerCase()) || wide.includes(word.toLowerCase())) found.add(word);
  }
  return [...found].sort();
}
