import { indexForm } from './porter-stem.js';
import { searchTerms } from './search-terms.js';

/** What a snippet marks: words as the stores index them (stemmed, accents removed), and prefixes. */
export interface SnippetTerms {
  words: string[];
  prefixes: string[];
}

/** The words and prefixes a search looks for (not those it leaves out). */
export function snippetTerms(text: string): SnippetTerms {
  const parsed = searchTerms(text);
  if (!parsed) return { words: [], prefixes: [] };
  const split = (t: string): string[] => t.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return {
    words: parsed.words.flatMap(split).map(indexForm),
    prefixes: parsed.prefixes.flatMap(split).map((p) => p.toLowerCase()),
  };
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
  const stems = new Map<string, boolean>();
  const isMatch = (token: string): boolean => {
    const lower = token.toLowerCase();
    if (terms.prefixes.some((p) => lower.startsWith(p))) return true;
    let known = stems.get(lower);
    if (known === undefined) {
      known = /[\p{L}\p{N}]/u.test(token) && terms.words.includes(indexForm(lower));
      stems.set(lower, known);
    }
    return known;
  };
  const wordIndexes: number[] = [];
  const matched: number[] = [];
  tokens.forEach((token, i) => {
    if (/[\p{L}\p{N}]/u.test(token)) {
      wordIndexes.push(i);
      matched.push(isMatch(token) ? 1 : 0);
    }
  });
  // The window of `size` words with the most matches (a running count).
  let count = matched.slice(0, size).reduce((a, b) => a + b, 0);
  let best = count;
  let bestFrom = 0;
  for (let w = 1; w + size <= wordIndexes.length; w++) {
    count += (matched[w + size - 1] ?? 0) - (matched[w - 1] ?? 0);
    if (count > best) {
      best = count;
      bestFrom = w;
    }
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
