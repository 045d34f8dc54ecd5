/** Where each word of a search appears, for snippets: words, phrase words and prefixes. */
export interface SnippetTerms {
  words: string[];
  prefixes: string[];
}

/** The words a search looks for, lower-cased (quotes and `*` removed). */
export function snippetTerms(text: string): SnippetTerms {
  const words: string[] = [];
  const prefixes: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|(\S+)/g)) {
    if (match[1] !== undefined) {
      words.push(
        ...match[1]
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
          .filter(Boolean),
      );
      continue;
    }
    const word = (match[2] ?? '').toLowerCase();
    const bare = word.replace(/\*+$/, '').replace(/[^\p{L}\p{N}]+/gu, '');
    if (!bare) continue;
    if (word.endsWith('*')) prefixes.push(bare);
    else words.push(bare);
  }
  return { words, prefixes };
}

/**
 * A passage of about `size` words around the densest run of matches, matched words between
 * `start` and `end` marks, `…` where the text was cut.
 */
export function makeSnippet(
  content: string,
  terms: SnippetTerms,
  start: string,
  end: string,
  size = 24,
): string {
  const tokens = [...content.matchAll(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu)].map((m) => m[0]);
  const isMatch = (token: string): boolean => {
    const lower = token.toLowerCase();
    return terms.words.includes(lower) || terms.prefixes.some((p) => lower.startsWith(p));
  };
  const wordIndexes: number[] = [];
  tokens.forEach((token, i) => {
    if (/[\p{L}\p{N}]/u.test(token)) wordIndexes.push(i);
  });
  // The window of `size` words with the most matches.
  let bestFrom = 0;
  let best = -1;
  for (let w = 0; w < Math.max(1, wordIndexes.length - size + 1); w++) {
    let count = 0;
    for (let k = w; k < Math.min(wordIndexes.length, w + size); k++)
      if (isMatch(tokens[wordIndexes[k] as number] ?? '')) count++;
    if (count > best) {
      best = count;
      bestFrom = w;
    }
    if (wordIndexes.length <= size) break;
  }
  const from = wordIndexes[bestFrom] ?? 0;
  const lastWord = Math.min(wordIndexes.length, bestFrom + size) - 1;
  const to = (wordIndexes[lastWord] ?? tokens.length - 1) + 1;
  const body = tokens
    .slice(from, to)
    .map((token) => (isMatch(token) ? `${start}${token}${end}` : token))
    .join('');
  return `${from > 0 ? '…' : ''}${body}${to < tokens.length ? '…' : ''}`;
}
