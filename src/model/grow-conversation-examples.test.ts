import { describe, expect, it } from 'vitest';
import { at, conversationOf, draftOf as growingDraft } from '../../test/support/growing-drafts.js';
import { buildConversation, emptyBuildMemo } from './build-conversation.js';
import type { Conversation } from './pam.js';
import type { DraftMessage } from './draft.js';

/**
 * Drafts taken back that a grown build cannot simply go on from: a message without a time
 * (counted as inferred), the first reply of a message without a time (which took its time),
 * the shown leaf drafted again with an earlier time. The build gives what a whole build gives.
 */

const draftOf = (key: string, parentKey: string | null, t: number | undefined): DraftMessage =>
  growingDraft(key, parentKey, t, parentKey === null ? 'user' : 'assistant', key, 0);

// A build of the drafts, going on from the memo's last one when given; what it told, in order.
// The conversation's own time stays put (a moved one would make any growth fall back whole).
function build(
  drafts: DraftMessage[],
  memo?: ReturnType<typeof emptyBuildMemo>,
): { conversation: Conversation; told: string[] } {
  const told: string[] = [];
  const draft = { ...conversationOf(drafts), createdAt: at(0), updatedAt: undefined };
  const conversation = buildConversation(draft, {
    record: '#0',
    fallbackTime: undefined,
    memo,
    report: (d) => told.push(`${d.code}: ${d.message}`),
  });
  return { conversation, told };
}

describe('a timeless message taken back', () => {
  it.each([
    ['drafted again with a time (same key)', (b: DraftMessage) => ({ ...b, createdAt: at(1) })],
    ['replaced by another with a time', () => draftOf('c', 'a', 1)],
  ])('is told of as a whole build tells it (%s)', (_, again) => {
    const a = draftOf('a', null, 0);
    const b = draftOf('b', 'a', undefined);
    const memo = emptyBuildMemo();
    build([a, b], memo);
    const next = [a, again(b)];
    // Built again whole or grown, it tells what a whole build tells.
    expect(build(next, memo).told).toEqual(build(next).told);
  });
});

describe('the first reply of a timeless message taken back', () => {
  it('leaves that message the time a whole build gives it (its parent’s, no longer its reply’s)', () => {
    const a = draftOf('a', null, 5);
    const p = draftOf('p', 'a', undefined);
    const b = draftOf('b', 'p', 1);
    const memo = emptyBuildMemo();
    build([a, p, b], memo);
    // The last draft taken back, a new root (with a time) drafted instead.
    const next = [a, p, draftOf('r', null, 6)];
    expect(build(next, memo).conversation).toEqual(build(next).conversation);
  });
});

describe('the shown leaf taken back and drafted again earlier (same key)', () => {
  it('is chosen again among every leaf, as a whole build chooses it', () => {
    const a = draftOf('a', null, 1);
    const b = draftOf('b', null, 1);
    const memo = emptyBuildMemo();
    // Two leaves at the same time: the later in the export's order (b) is shown.
    build([a, b], memo);
    // b drafted again with an earlier time: a is now the most recent leaf.
    const next = [a, { ...b, createdAt: at(0) }];
    expect(build(next, memo).conversation.raw_metadata).toEqual(
      build(next).conversation.raw_metadata,
    );
  });
});
