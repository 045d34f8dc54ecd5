import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { project } from '../graph/project.js';
import { emptyProjectMemo } from '../graph/project-memo.js';
import { buildConversation, emptyBuildMemo } from './build-conversation.js';
import type { DraftConversation, DraftMessage } from './draft.js';

/**
 * Review (hostile) copy of grow-conversation.test.ts with two more kinds of step: the last
 * drafts drafted again with another time (or none), and taken back for drafts of new keys.
 */

/** One change a growing conversation goes through between two builds. */
type Step =
  | { kind: 'reply'; to: 'last' | number; time: number | undefined; role: 'user' | 'assistant' }
  | { kind: 'root'; time: number }
  | { kind: 'redraft'; back: number; text: string }
  | { kind: 'edit'; at: number; output: string }
  | { kind: 'repeat'; at: number }
  | { kind: 'off-thread'; time: number }
  | { kind: 'retime'; back: number; time: number | undefined }
  | { kind: 'swap'; back: number; time: number | undefined; root: boolean };

const time = fc.integer({ min: 0, max: 40 });
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('reply' as const),
      to: fc.constant('last' as const),
      time: fc.option(time, { nil: undefined, freq: 12 }),
      role: fc.constantFrom('user' as const, 'assistant' as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('reply' as const),
      to: fc.nat(),
      time: fc.option(time, { nil: undefined, freq: 8 }),
      role: fc.constantFrom('user' as const, 'assistant' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('root' as const), time }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('redraft' as const),
      back: fc.integer({ min: 1, max: 3 }),
      text: fc.constantFrom('a', 'b'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('edit' as const),
      at: fc.nat(),
      output: fc.constantFrom('ok', 'failed'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('off-thread' as const), time }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('retime' as const),
      back: fc.integer({ min: 1, max: 2 }),
      time: fc.option(time, { nil: undefined, freq: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('swap' as const),
      back: fc.integer({ min: 1, max: 2 }),
      time: fc.option(time, { nil: undefined, freq: 3 }),
      root: fc.boolean(),
    }),
  },
);

const at = (t: number): string => `2026-01-01T10:00:${String(t).padStart(2, '0')}.000000Z`;

function draftOf(
  key: string,
  parentKey: string | null,
  t: number | undefined,
  role: DraftMessage['role'],
  text: string,
): DraftMessage {
  return {
    key,
    parentKey,
    provider_message_id: key,
    role,
    content: { type: 'text', text },
    createdAt: t === undefined ? undefined : at(t),
    model: role === 'assistant' ? 'claude-x' : null,
    is_thought: false,
    attachments: [],
    citations: [],
    tool_calls:
      role === 'assistant' ? [{ id: `call-${key}`, name: 'Read', input: {}, output: null }] : [],
    raw_metadata: role === 'system' ? { hidden: true } : {},
  };
}

// Applies a step to the drafts as a provider would: new drafts, drafts taken back and made
// again, drafts changed in place (listed in `changed`).
function apply(drafts: DraftMessage[], s: Step, n: number, changed: Set<DraftMessage>): void {
  const last = drafts.at(-1);
  const key = `k${n}`;
  if (s.kind === 'reply') {
    const parent = s.to === 'last' ? last : drafts[s.to % Math.max(1, drafts.length)];
    drafts.push(draftOf(key, parent?.key ?? null, s.time, s.role, `text ${n}`));
  } else if (s.kind === 'root') drafts.push(draftOf(key, null, s.time, 'user', `root ${n}`));
  else if (s.kind === 'off-thread')
    drafts.push(draftOf(key, last?.key ?? null, s.time, 'system', 'hidden'));
  else if (s.kind === 'redraft') {
    const back = drafts.splice(Math.max(0, drafts.length - s.back));
    for (const old of back) drafts.push({ ...old, content: { type: 'text', text: s.text } });
  } else if (s.kind === 'edit') {
    const target = drafts[s.at % Math.max(1, drafts.length)];
    const call = target?.tool_calls[0];
    if (target && call) {
      target.tool_calls = [{ ...call, output: s.output }];
      changed.add(target);
    }
  } else if (s.kind === 'retime') {
    // A split reply drafted again once its next part came: the time may come with it.
    const back = drafts.splice(Math.max(0, drafts.length - s.back));
    for (const old of back)
      drafts.push({ ...old, createdAt: s.time === undefined ? undefined : at(s.time) });
  } else if (s.kind === 'swap') {
    // The last drafts taken back, others (new keys) drafted in their place.
    drafts.splice(Math.max(0, drafts.length - s.back));
    const parent = s.root ? null : (drafts.at(-1)?.key ?? null);
    drafts.push(draftOf(key, parent, s.time, 'assistant', `swapped ${n}`));
  } else {
    const copied = drafts[s.at % Math.max(1, drafts.length)];
    if (copied) drafts.push({ ...copied });
  }
}

function conversationOf(drafts: DraftMessage[]): DraftConversation {
  const times = drafts.flatMap((d) => (d.createdAt === undefined ? [] : [d.createdAt])).sort();
  return {
    provider: {
      name: 'claude-code',
      conversation_id: 'c1',
      account_id: null,
      export_format_version: null,
    },
    title: 'grown',
    createdAt: times[0],
    updatedAt: times.at(-1),
    messages: drafts,
    shownLeafKey: undefined,
    model: null,
    system_instruction: null,
    is_archived: false,
    raw_metadata: {},
    assistantName: 'Claude Code',
  };
}

const options = { record: '#0', fallbackTime: undefined };
const projection = {
  source: 'claude-code',
  label: 'Claude Code',
  deep: true,
  importId: 'import:1',
};

describe('review: a conversation built as it grows, drafts taken back with other times or keys', () => {
  it('is the conversation, and the graph, a whole build of the same drafts gives, step after step', () => {
    let grown = 0;
    let steps = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (plan) => {
        const drafts: DraftMessage[] = [];
        const memo = emptyBuildMemo();
        const projected = emptyProjectMemo();
        plan.forEach((s, n) => {
          apply(drafts, s, n, memo.changed);
          const live: string[] = [];
          const liveConversation = buildConversation(conversationOf(drafts), {
            ...options,
            memo,
            report: (d) => live.push(d.code),
          });
          const change = memo.change;
          const whole: string[] = [];
          const wholeConversation = buildConversation(conversationOf(drafts), {
            ...options,
            report: (d) => whole.push(d.code),
          });
          expect(liveConversation).toEqual(wholeConversation);
          expect(live).toEqual(whole);
          const liveBatch = project(liveConversation, { ...projection, memo: projected, change });
          expect(liveBatch).toEqual(project(wholeConversation, projection));
          steps++;
          if (change) grown++;
        });
      }),
      { numRuns: Number(process.env.REVIEW_RUNS ?? 400) },
    );
    // Most steps went on from the last build (the test would pass vacuously otherwise).
    expect(grown / steps).toBeGreaterThan(0.4);
  });
});
