import fc from 'fast-check';
import type { DraftConversation, DraftMessage } from '../../src/model/draft.js';

/**
 * Drafts of a conversation that grows, for property tests of builds and projections that go on
 * from the last one: replies (to the last message or an earlier one), roots, drafts taken back
 * and made again (other text, another time, other keys), tool calls given their output (a new
 * call object, or the same one changed as `pairToolResults` does), repeated keys, hidden system
 * messages, attachments with text, and Read/Edit calls on shared files.
 */

/** One change a growing conversation goes through between two builds. */
export type Step =
  | { kind: 'reply'; to: 'last' | number; time: number | undefined; role: 'user' | 'assistant' }
  | { kind: 'root'; time: number }
  | { kind: 'redraft'; back: number; text: string }
  | { kind: 'edit'; at: number; output: string }
  | { kind: 'edit-in-place'; at: number; output: string }
  | { kind: 'repeat'; at: number }
  | { kind: 'off-thread'; time: number }
  | { kind: 'attach'; time: number }
  | { kind: 'retime'; back: number; time: number | undefined }
  | { kind: 'swap'; back: number; time: number | undefined; root: boolean };

const time = fc.integer({ min: 0, max: 40 });
/** A step as a growing log makes them (and as it must not: a build must fall back whole). */
export const step: fc.Arbitrary<Step> = fc.oneof(
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
      text: fc.constantFrom('alpha', 'omega'),
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
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('edit-in-place' as const),
      at: fc.nat(),
      output: fc.constantFrom('ok', 'failed'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('repeat' as const), at: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('off-thread' as const), time }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('attach' as const), time }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('retime' as const),
      back: fc.integer({ min: 1, max: 2 }),
      time: fc.option(time, { nil: undefined, freq: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('swap' as const),
      back: fc.integer({ min: 1, max: 2 }),
      time: fc.option(time, { nil: undefined, freq: 3 }),
      root: fc.boolean(),
    }),
  },
);

export const at = (t: number): string => `2026-01-01T10:00:${String(t).padStart(2, '0')}.000000Z`;
/** Words of the drafts' texts. */
export const WORDS = ['alpha', 'omega', 'zebra', 'quokka', 'attached', 'hidden', 'root'];

export function draftOf(
  key: string,
  parentKey: string | null,
  t: number | undefined,
  role: DraftMessage['role'],
  text: string,
  n: number,
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
      role === 'assistant'
        ? [
            {
              id: `call-${key}`,
              name: n % 2 === 0 ? 'Read' : 'Edit',
              input: { file_path: n % 3 === 0 ? '/a.ts' : '/b.ts' },
              output: null,
            },
          ]
        : [],
    raw_metadata: role === 'system' ? { hidden: true } : {},
  };
}

/**
 * Applies a step to the drafts as a provider would: new drafts, drafts taken back and made
 * again, drafts changed in place (listed in `changed`).
 */
export function apply(
  drafts: DraftMessage[],
  s: Step,
  n: number,
  changed: Set<DraftMessage>,
): void {
  const last = drafts.at(-1);
  const key = `k${n}`;
  const words = n % 2 === 0 ? 'zebra' : 'quokka';
  if (s.kind === 'reply') {
    const parent = s.to === 'last' ? last : drafts[s.to % Math.max(1, drafts.length)];
    drafts.push(draftOf(key, parent?.key ?? null, s.time, s.role, `${words} ${n}`, n));
  } else if (s.kind === 'root') drafts.push(draftOf(key, null, s.time, 'user', `root ${n}`, n));
  else if (s.kind === 'off-thread')
    drafts.push(draftOf(key, last?.key ?? null, s.time, 'system', 'hidden', n));
  else if (s.kind === 'attach') {
    const draft = draftOf(key, last?.key ?? null, s.time, 'user', `${words} with a file`, n);
    draft.attachments = [
      {
        type: 'document',
        name: `f${n}`,
        mime_type: 'text/plain',
        size_bytes: 1,
        ref: `ref-${n % 2}`,
        provider_id: null,
      },
    ];
    drafts.push(draft);
  } else if (s.kind === 'redraft') {
    const back = drafts.splice(Math.max(0, drafts.length - s.back));
    for (const old of back) drafts.push({ ...old, content: { type: 'text', text: s.text } });
  } else if (s.kind === 'edit') {
    const target = drafts[s.at % Math.max(1, drafts.length)];
    const call = target?.tool_calls[0];
    if (target && call) {
      target.tool_calls = [{ ...call, output: s.output }];
      changed.add(target);
    }
  } else if (s.kind === 'edit-in-place') {
    // As `pairToolResults` does: the call object itself gets the output.
    const target = drafts[s.at % Math.max(1, drafts.length)];
    const call = target?.tool_calls[0];
    if (target && call) {
      call.output = call.output === null ? s.output : `${call.output}\n${s.output}`;
      changed.add(target);
    }
  } else if (s.kind === 'retime') {
    const back = drafts.splice(Math.max(0, drafts.length - s.back));
    for (const old of back)
      drafts.push({ ...old, createdAt: s.time === undefined ? undefined : at(s.time) });
  } else if (s.kind === 'swap') {
    drafts.splice(Math.max(0, drafts.length - s.back));
    const parent = s.root ? null : (drafts.at(-1)?.key ?? null);
    drafts.push(draftOf(key, parent, s.time, 'assistant', `${words} swapped`, n));
  } else {
    const copied = drafts[s.at % Math.max(1, drafts.length)];
    // A copy of its own (a provider drafts each line anew): no call object shared.
    if (copied) drafts.push({ ...copied, tool_calls: copied.tool_calls.map((c) => ({ ...c })) });
  }
}

/** The draft conversation of the drafts so far, its times the earliest and latest. */
export function conversationOf(drafts: DraftMessage[]): DraftConversation {
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
    raw_metadata: { cwd: '/work/p', git_branch: 'main' },
    assistantName: 'Claude Code',
  };
}
