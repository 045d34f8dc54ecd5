import type { SearchMode } from '../stores/store.js';
import type { ConversationHit } from './group-by-conversation.js';

const conversations = (n: number): string => `${String(n)} conversation${n === 1 ? '' : 's'}`;

/**
 * What an answer holds, in words a person reads: how many conversations have the words, how
 * many more are only close in meaning, and how many passages were too far in meaning to show
 * ("1 conversation has the word; 2 more are close in meaning").
 */
export function answerSummary(
  mode: SearchMode,
  found: readonly ConversationHit[],
  words: number,
  belowFloor = 0,
): string {
  const word = words === 1 ? 'word' : 'words';
  const byWords = found.filter(
    (c) => c.why?.keyword !== undefined || c.passages.some((p) => p.why?.keyword !== undefined),
  ).length;
  const byMeaning = found.length - byWords;
  const parts: string[] = [];
  if (mode === 'keyword' || byWords > 0)
    parts.push(`${conversations(byWords)} ${byWords === 1 ? 'has' : 'have'} the ${word}`);
  if (mode !== 'keyword') {
    const close = byMeaning === 1 ? 'is close in meaning' : 'are close in meaning';
    if (parts.length > 0)
      parts.push(
        byMeaning === 0 ? 'no other is close in meaning' : `${String(byMeaning)} more ${close}`,
      );
    else parts.push(`${conversations(byMeaning)} ${close}`);
  }
  if (belowFloor > 0)
    parts.push(
      `${String(belowFloor)} passage${belowFloor === 1 ? ' was' : 's were'} too far in meaning to show`,
    );
  return parts.join('; ');
}
