import { describe, expect, it } from 'vitest';
import { buildConversation, emptyBuildMemo } from './build-conversation.js';
import type { DraftConversation, DraftMessage } from './draft.js';

/**
 * Drafts taken back that a grown build cannot simply go on from: a message without a time
 * (counted as inferred), the first reply of a message without a time (which took its time),
 * the shown leaf drafted again with an earlier time. The build gives what a whole build gives.
 */
const at = (t: number): string => `2026-01-01T10:00:${String(t).padStart(2, '0')}.000000Z`;

function draftOf(key: string, parentKey: string | null, t: number | undefined): DraftMessage {
  return {
    key,
    parentKey,
    provider_message_id: key,
    role: parentKey === null ? 'user' : 'assistant',
    content: { type: 'text', text: key },
    createdAt: t === undefined ? undefined : at(t),
    model: null,
    is_thought: false,
    attachments: [],
    citations: [],
    tool_calls: [],
    raw_metadata: {},
  };
}

function conversationOf(drafts: DraftMessage[]): DraftConversation {
  return {
    provider: {
      name: 'claude-code',
      conversation_id: 'c1',
      account_id: null,
      export_format_version: null,
    },
    title: 't',
    createdAt: at(0),
    updatedAt: undefined,
    messages: drafts,
    shownLeafKey: undefined,
    model: null,
    system_instruction: null,
    is_archived: false,
    raw_metadata: {},
    assistantName: 'Claude Code',
  };
}

function codes(drafts: DraftMessage[], memo?: ReturnType<typeof emptyBuildMemo>): string[] {
  const told: string[] = [];
  buildConversation(conversationOf(drafts), {
    record: '#0',
    fallbackTime: undefined,
    memo,
    report: (d) => told.push(`${d.code}: ${d.message}`),
  });
  return told;
}

describe('a timeless message taken back', () => {
  it.each([
    ['drafted again with a time (same key)', (b: DraftMessage) => ({ ...b, createdAt: at(1) })],
    ['replaced by another with a time', () => draftOf('c', 'a', 1)],
  ])('is told of as a whole build tells it (%s)', (_, again) => {
    const a = draftOf('a', null, 0);
    const b = draftOf('b', 'a', undefined);
    const memo = emptyBuildMemo();
    codes([a, b], memo);
    const next = [a, again(b)];
    const grown = codes(next, memo);
    // Built again whole or grown, it tells what a whole build tells.
    expect(grown).toEqual(codes(next));
  });
});

describe('the first reply of a timeless message taken back', () => {
  it('leaves that message the time a whole build gives it (its parent’s, no longer its reply’s)', () => {
    const a = draftOf('a', null, 5);
    const p = draftOf('p', 'a', undefined);
    const b = draftOf('b', 'p', 1);
    const memo = emptyBuildMemo();
    const build = (drafts: DraftMessage[], withMemo: boolean) =>
      buildConversation(conversationOf(drafts), {
        record: '#0',
        fallbackTime: undefined,
        memo: withMemo ? memo : undefined,
        report: () => undefined,
      });
    build([a, p, b], true);
    // The last draft taken back, a new root (with a time) drafted instead.
    const next = [a, p, draftOf('r', null, 6)];
    const grown = build(next, true);
    expect(grown).toEqual(build(next, false));
  });
});

describe('the shown leaf taken back and drafted again earlier (same key)', () => {
  it('is chosen again among every leaf, as a whole build chooses it', () => {
    const a = draftOf('a', null, 1);
    const b = draftOf('b', null, 1);
    const memo = emptyBuildMemo();
    const build = (drafts: DraftMessage[], withMemo: boolean) =>
      buildConversation(conversationOf(drafts), {
        record: '#0',
        fallbackTime: undefined,
        memo: withMemo ? memo : undefined,
        report: () => undefined,
      });
    // Two leaves at the same time: the later in the export's order (b) is shown.
    build([a, b], true);
    // b drafted again with an earlier time: a is now the most recent leaf.
    const next = [a, { ...b, createdAt: '2026-01-01T10:00:00.000000Z' }];
    const grown = build(next, true);
    expect(grown.raw_metadata).toEqual(build(next, false).raw_metadata);
  });
});
