import type { SearchResult } from '../index.js';

/** What `search` prints before its hits: when nothing matched, that, and a word that would. */
export function searchHeader(result: SearchResult, text: string, offset: number): string[] {
  if (result.hits.length > 0) return [];
  if (result.matches > 0 && offset > 0)
    return [
      `no more hits: ${result.matches.toLocaleString('en-US')} in all, all shown before --offset ${offset}`,
    ];
  if (result.hint !== undefined) return [`no match for ${text}; did you mean: ${result.hint}`];
  return ['no matches'];
}

/** What `search` prints after its hits: how much was ranked, and how to see the next page. */
export function searchFooter(result: SearchResult, offset: number): string[] {
  const lines: string[] = [];
  const count = (n: number): string => n.toLocaleString('en-US');
  if (result.ranked > 0 && result.ranked < result.matches) {
    lines.push(
      `(${result.matchesCapped ? 'more than ' : ''}${count(result.matches)} match; the best of the ${count(result.ranked)} most recently indexed are shown: add words to narrow)`,
    );
  }
  const shown = offset + result.hits.length;
  if (result.hits.length > 0 && shown < result.matches) {
    lines.push(
      `(hits ${count(offset + 1)}–${count(shown)} of ${result.matchesCapped ? 'more than ' : ''}${count(result.matches)}: --offset ${shown} for the next ones)`,
    );
  }
  return lines;
}
