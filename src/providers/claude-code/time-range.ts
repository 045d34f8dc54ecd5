import type { BuildMemo } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';

/** The earliest and latest message times of a session. */
export interface TimeRange {
  first: string | undefined;
  last: string | undefined;
}

interface KeptRange extends TimeRange {
  drafts: DraftMessage[];
}

// A followed session's range, by its build memo: drafts change at the end (a reply drafted
// again, new lines) while the session grows, so the range goes on from the drafts it was of.
const kept = new WeakMap<BuildMemo, KeptRange>();

/**
 * The earliest and latest message times. With the memo of a session that grows, the drafts
 * the range was last taken over are compared by identity (no time compared again) and only
 * those after the first change are looked at, unless one taken away held an end of the range.
 */
export function timeRange(drafts: readonly DraftMessage[], memo?: BuildMemo): TimeRange {
  const before = memo ? kept.get(memo) : undefined;
  let same = 0;
  if (before)
    while (
      same < drafts.length &&
      same < before.drafts.length &&
      drafts[same] === before.drafts[same]
    )
      same++;
  const ends = (time: string | undefined): boolean =>
    time !== undefined && (time === before?.first || time === before?.last);
  const grows = before !== undefined && !before.drafts.slice(same).some((d) => ends(d.createdAt));
  const range = grows
    ? fold(before, drafts, same)
    : fold({ first: undefined, last: undefined }, drafts, 0);
  if (memo) kept.set(memo, { ...range, drafts: [...drafts] });
  return range;
}

function fold(range: TimeRange, drafts: readonly DraftMessage[], from: number): TimeRange {
  let { first, last } = range;
  for (let i = from; i < drafts.length; i++) {
    const createdAt = drafts[i]?.createdAt;
    if (createdAt === undefined) continue;
    if (first === undefined || createdAt < first) first = createdAt;
    if (last === undefined || createdAt > last) last = createdAt;
  }
  return { first, last };
}
