/**
 * Turns what a person types into an FTS5 query: words and "quoted phrases" must all match,
 * `word*` is a prefix; everything else is quoted, so no input is an FTS5 syntax error.
 */
export function toFtsQuery(text: string): string | undefined {
  const terms: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|(\S+)/g)) {
    const phrase = match[1];
    if (phrase !== undefined) {
      const words = phrase.trim();
      if (words) terms.push(`"${words.replace(/"/g, '""')}"`);
      continue;
    }
    const word = match[2] ?? '';
    const prefix = word.endsWith('*');
    const bare = word.replace(/\*+$/, '').replace(/"/g, '');
    if (!/[\p{L}\p{N}]/u.test(bare)) continue;
    terms.push(`"${bare}"${prefix ? '*' : ''}`);
  }
  return terms.length > 0 ? terms.join(' ') : undefined;
}
