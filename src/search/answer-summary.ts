import type { SearchMode } from '../stores/store.js';
import type { ConversationHit } from './search-hit.js';

const conversations = (n: number): string => `${String(n)} conversation${n === 1 ? '' : 's'}`;

/**
 * What an answer holds, in words a person reads: how many conversations have the words (the
 * store's exact count, `withWords`, when given: the same on every page), how many more of
 * those found are only close in meaning, and how many passages were too far in meaning to show
 * ("9 conversations have the word; 2 more are close in meaning"), or that it was not searched
 * by meaning (`byWordsOnly`: a question in a language the model does not read).
 */
export function answerSummary(
  mode: SearchMode,
  found: readonly ConversationHit[],
  words: number,
  belowFloor = 0,
  withWords?: number,
  byWordsOnly = false,
): string {
  const word = words === 1 ? 'word' : 'words';
  const shownByWords = found.filter(
    (c) => c.why?.keyword !== undefined || c.passages.some((p) => p.why?.keyword !== undefined),
  ).length;
  const byWords = mode === 'semantic' ? shownByWords : (withWords ?? shownByWords);
  const byMeaning = found.length - shownByWords;
  const parts: string[] = [];
  // A search by words (alone or with meaning) starts with the count of those holding them.
  if (mode !== 'semantic' || byWords > 0 || byWordsOnly)
    parts.push(`${conversations(byWords)} ${byWords === 1 ? 'has' : 'have'} the ${word}`);
  if (byWordsOnly && mode !== 'keyword') {
    parts.push('not searched by meaning');
    return parts.join('; ');
  }
  if (mode !== 'keyword') {
    const close = byMeaning === 1 ? 'is close in meaning' : 'are close in meaning';
    if (parts.length === 0) parts.push(`${conversations(byMeaning)} ${close}`);
    else if (byWords === 0)
      parts.push(byMeaning === 0 ? 'none is close in meaning' : `${String(byMeaning)} ${close}`);
    else
      parts.push(
        byMeaning === 0 ? 'no other is close in meaning' : `${String(byMeaning)} more ${close}`,
      );
  }
  if (belowFloor > 0)
    parts.push(
      `${String(belowFloor)} passage${belowFloor === 1 ? ' was' : 's were'} too far in meaning to show`,
    );
  return parts.join('; ');
}
