import type { BuildMemo } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';

/** What a session's conversion asks of all its drafts: their time range and their keys. */
export interface DraftsIndex {
  /** The earliest and latest message times. */
  first: string | undefined;
  last: string | undefined;
  /** Whether a draft has this key (a summary names the message it ends at). */
  has(key: string): boolean;
}

interface KeptIndex {
  drafts: DraftMessage[];
  first: string | undefined;
  last: string | undefined;
  keys: Map<string, number>;
}

// A followed session's index, by its build memo: drafts change at the end (a reply drafted
// again, new lines) while the session grows, so the index goes on from the drafts it was of.
const kept = new WeakMap<BuildMemo, KeptIndex>();

/**
 * The drafts' time range and keys. With the memo of a session that grows, the drafts the index
 * was last made of are compared by identity (no time or key looked at again), and only those
 * taken back or added since are: a resumed session's summary or a long session's times cost
 * what changed, not the session's length. A draft taken back that held an end of the range
 * makes the range again from all of them.
 */
export function draftsIndex(drafts: readonly DraftMessage[], memo?: BuildMemo): DraftsIndex {
  if (!memo) {
    // Converted once: the keys are looked at only if a summary asks.
    let keys: Set<string> | undefined;
    return {
      ...range({ first: undefined, last: undefined }, drafts, 0),
      has: (key) => (keys ??= new Set(drafts.map((d) => d.key))).has(key),
    };
  }
  const before = kept.get(memo);
  const index = before ? grow(before, drafts) : made(drafts);
  kept.set(memo, index);
  return { first: index.first, last: index.last, has: (key) => (index.keys.get(key) ?? 0) > 0 };
}

function made(drafts: readonly DraftMessage[]): KeptIndex {
  const keys = new Map<string, number>();
  for (const draft of drafts) count(keys, draft.key, 1);
  return { drafts: [...drafts], ...range({ first: undefined, last: undefined }, drafts, 0), keys };
}

function grow(before: KeptIndex, drafts: readonly DraftMessage[]): KeptIndex {
  let same = 0;
  while (
    same < drafts.length &&
    same < before.drafts.length &&
    drafts[same] === before.drafts[same]
  )
    same++;
  const removed = before.drafts.slice(same);
  for (const draft of removed) count(before.keys, draft.key, -1);
  for (let i = same; i < drafts.length; i++) count(before.keys, drafts[i]?.key ?? '', 1);
  const end = (time: string | undefined): boolean =>
    time !== undefined && (time === before.first || time === before.last);
  const times = removed.some((d) => end(d.createdAt))
    ? range({ first: undefined, last: undefined }, drafts, 0)
    : range(before, drafts, same);
  return { drafts: [...drafts], ...times, keys: before.keys };
}

function range(
  from: { first: string | undefined; last: string | undefined },
  drafts: readonly DraftMessage[],
  start: number,
): { first: string | undefined; last: string | undefined } {
  let { first, last } = from;
  for (let i = start; i < drafts.length; i++) {
    const createdAt = drafts[i]?.createdAt;
    if (createdAt === undefined) continue;
    if (first === undefined || createdAt < first) first = createdAt;
    if (last === undefined || createdAt > last) last = createdAt;
  }
  return { first, last };
}

function count(keys: Map<string, number>, key: string, by: number): void {
  const n = (keys.get(key) ?? 0) + by;
  if (n > 0) keys.set(key, n);
  else keys.delete(key);
}
