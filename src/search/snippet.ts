import { indexForm } from './porter-stem.js';
import { plainText } from './plain-text.js';
import { searchTerms } from './search-terms.js';

/**
 * The most characters of text a snippet shows (its marks and `…` aside), whatever the text: one
 * unbroken token of megabytes is cut like any other text.
 */
export const SNIPPET_MAX_CHARS = 300;

/** A word or a run of spaces and signs longer than this is shown cut, with `…`. */
const TOKEN_MAX_CHARS = 60;

/**
 * Text longer than this is not read whole for its snippet: a passage of this size around the
 * first place a term occurs is (measured: 8 MB of short words took 9 s to cut whole).
 */
const SCAN_MAX_CHARS = 100_000;

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

// At most `max` UTF-16 units, never half a surrogate pair, `…` when cut.
function clip(token: string, max: number): string {
  if (token.length <= max) return token;
  const code = token.charCodeAt(max - 1);
  const end = code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
  return `${token.slice(0, end)}…`;
}

// The part of a long text read for its snippet: around the earliest term found (a stem is
// looked for as written, so a form the stemmer changed may be missed: the start is read then).
function scanned(
  content: string,
  terms: SnippetTerms,
): { text: string; cutBefore: boolean; cutAfter: boolean } {
  if (content.length <= SCAN_MAX_CHARS) return { text: content, cutBefore: false, cutAfter: false };
  const lower = content.toLowerCase();
  let first = -1;
  for (const term of [...terms.prefixes, ...terms.words]) {
    if (term === '') continue;
    const at = lower.indexOf(term);
    if (at !== -1 && (first === -1 || at < first)) first = at;
  }
  const from = Math.max(0, Math.min(content.length - SCAN_MAX_CHARS, first - SCAN_MAX_CHARS / 2));
  const to = from + SCAN_MAX_CHARS;
  return { text: content.slice(from, to), cutBefore: from > 0, cutAfter: to < content.length };
}

// Whether a word matches, by its lower case, kept for every snippet of one search (the same
// words recur from message to message: stemming each anew was most of a cold search's snippets).
const matchCache = new WeakMap<SnippetTerms, Map<string, boolean>>();
const MATCH_CACHE_LIMIT = 50_000;

function matchesOf(terms: SnippetTerms): Map<string, boolean> {
  let known = matchCache.get(terms);
  if (!known || known.size > MATCH_CACHE_LIMIT) {
    known = new Map();
    matchCache.set(terms, known);
  }
  return known;
}

/**
 * A passage of about `size` words of the text made plain ({@link plainText}) around the
 * densest run of matches, matched words between
 * `start` and `end` marks, `…` where the text was cut; at most {@link SNIPPET_MAX_CHARS}
 * characters of text however long its words.
 */
export function makeSnippet(
  content: string,
  terms: SnippetTerms,
  start: string,
  end: string,
  size = 24,
): string {
  const scan = scanned(content, terms);
  const tokens = [...plainText(scan.text).matchAll(/[\p{L}\p{N}]+|[^\p{L}\p{N}]+/gu)].map(
    (m) => m[0],
  );
  const stems = matchesOf(terms);
  const isMatch = (token: string): boolean => {
    const lower = token.toLowerCase();
    if (terms.prefixes.some((p) => lower.startsWith(p))) return true;
    // No index keeps a word this long whole: only a prefix matches it.
    if (token.length > TOKEN_MAX_CHARS * 4) return false;
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
  let from = wordIndexes[bestFrom] ?? 0;
  const lastWord = Math.min(wordIndexes.length, bestFrom + size) - 1;
  let to = Math.min(tokens.length, (wordIndexes[lastWord] ?? tokens.length - 1) + 1);
  // Within the character budget: from a little before the first match in the window onwards.
  const shown = tokens.map((token) => clip(token, TOKEN_MAX_CHARS));
  const length = (a: number, b: number): number =>
    shown.slice(a, b).reduce((sum, token) => sum + token.length, 0);
  if (length(from, to) > SNIPPET_MAX_CHARS) {
    let focus = from;
    while (focus < to && !isMatch(tokens[focus] ?? '')) focus++;
    if (focus === to) focus = from;
    from = focus;
    while (
      from > 0 &&
      length(from - 1, focus) + (shown[focus]?.length ?? 0) <= SNIPPET_MAX_CHARS / 3
    )
      from--;
    to = focus + 1;
    while (to < tokens.length && length(from, to + 1) <= SNIPPET_MAX_CHARS) to++;
  }
  const body = tokens
    .slice(from, to)
    .map((token, i) => {
      const text = shown[from + i] ?? '';
      return isMatch(token) ? `${start}${text}${end}` : text;
    })
    .join('');
  const before = from > 0 || scan.cutBefore;
  const after = to < tokens.length || scan.cutAfter;
  return `${before ? '…' : ''}${body}${after && !body.endsWith('…') ? '…' : ''}`;
}
