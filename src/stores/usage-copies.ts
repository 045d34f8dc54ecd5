import type { TokenSlot } from './usage-reader.js';

/** One message holding a response that more than one message holds, with its counts. */
export type ResponseCopy = TokenSlot & {
  /** The response's id (`Message.response_id`). */
  response: string;
  /** The message's node id. */
  id: string;
  createdAt: string | null;
  /** When its conversation started. */
  started: string | null;
};

const COUNTS = ['input', 'output', 'cacheRead', 'cacheCreation', 'reasoning'] as const;

const keyOf = (s: TokenSlot): string =>
  [s.conversationId, s.slot, s.model, s.long ? '1' : '0'].join('\u0000');

// Earlier first; a missing time last; then the conversation that started first, then the id.
function compare(a: ResponseCopy, b: ResponseCopy): number {
  const time = (a.createdAt ?? '\uffff').localeCompare(b.createdAt ?? '\uffff');
  if (time !== 0) return time;
  const started = (a.started ?? '\uffff').localeCompare(b.started ?? '\uffff');
  return started !== 0 ? started : a.id.localeCompare(b.id);
}

/**
 * The slots with every copy of a response but the first taken out (a resumed session writes
 * the replies of the session it resumes into its own file again): each response counts once,
 * in the conversation that holds it first. Slots left with no tokens are dropped.
 */
export function withoutCopies(
  slots: readonly TokenSlot[],
  copies: readonly ResponseCopy[],
): TokenSlot[] {
  const counted = (slot: TokenSlot): boolean => COUNTS.some((field) => slot[field] !== 0);
  // Nothing held twice (the common case): the slots as they are, one per key already.
  if (copies.length === 0) return slots.filter(counted);
  const byKey = new Map<string, TokenSlot>();
  for (const slot of slots) {
    const key = keyOf(slot);
    const seen = byKey.get(key);
    if (seen) for (const field of COUNTS) seen[field] += slot[field];
    else byKey.set(key, { ...slot });
  }
  for (const copy of takenOut(copies)) {
    const slot = byKey.get(keyOf(copy));
    if (slot) for (const field of COUNTS) slot[field] -= copy[field];
  }
  return [...byKey.values()].filter(counted);
}

/** Every copy of a response but the one counted (see {@link withoutCopies}). */
export function takenOut(copies: readonly ResponseCopy[]): ResponseCopy[] {
  const byResponse = new Map<string, ResponseCopy[]>();
  for (const copy of copies) {
    const list = byResponse.get(copy.response);
    if (list) list.push(copy);
    else byResponse.set(copy.response, [copy]);
  }
  return [...byResponse.values()].flatMap((list) => [...list].sort(compare).slice(1));
}
