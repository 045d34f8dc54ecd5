import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { SessionBuilder } from './session-builder.js';
import { toClaudeCodeConversation } from './to-conversation.js';

const context = (file: string): ConversionContext => ({
  record: '#0',
  file,
  fallbackTime: undefined,
  report: () => undefined,
  resolveAsset: () => undefined,
  attachText: () => {
    throw new Error('no attachments in session logs');
  },
});

function batch(entries: readonly unknown[], variant: string, file: string): Conversation[] {
  const value = { entries: [...entries], badLines: [], cutLastLine: false };
  const converted = toClaudeCodeConversation(value, variant, context(file));
  return converted === undefined ? [] : Array.isArray(converted) ? converted : [converted];
}

// Small pools, so that random lines collide the way real logs do: split replies (a shared
// message.id), repeated uuids (resumed sessions), results before or without their call,
// parents that are missing or later, a second session, titles and summaries arriving late.
const pick = <T>(values: readonly T[]): fc.Arbitrary<T> => fc.constantFrom(...values);
const uuid = pick(['u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7', 'u8', 'u9', 'u10', 'u11', 'u12']);
const toolId = pick(['t1', 't2', 't3', 't4']);
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text: pick(['hi', 'fix it', '', 'done']) }),
  fc.record({ type: fc.constant('thinking'), thinking: pick(['hmm', 'plan']) }),
  fc.record({
    type: fc.constant('tool_use'),
    id: toolId,
    name: pick(['Read', 'Edit', 'Task']),
    input: fc.constant({ file_path: '/a.ts' }),
  }),
  fc.record({
    type: fc.constant('tool_result'),
    tool_use_id: toolId,
    content: pick(['ok', 'failed']),
    is_error: fc.boolean(),
  }),
);
const messageLine = fc.record({
  type: pick(['user', 'user', 'assistant', 'assistant', 'assistant', 'system']),
  uuid,
  parentUuid: fc.option(uuid, { nil: null }),
  sessionId: fc.constantFrom('s1', 's1', 's1', 's1', 's1', 's1', 's1', 's2'),
  timestamp: fc.option(
    fc.integer({ min: 0, max: 59 }).map((s) => `2026-01-01T10:00:${String(s).padStart(2, '0')}Z`),
    { nil: undefined },
  ),
  message: fc.record({
    id: pick(['m1', 'm2', 'm3', 'm4', 'm5', 'm6']),
    model: pick(['claude-opus-4', 'claude-sonnet-4']),
    content: fc.oneof(
      pick(['hello', '<command-name>/clear', '']),
      fc.array(block, { maxLength: 3 }),
    ),
  }),
  toolUseResult: fc.option(fc.record({ agentId: pick(['a1', 'a2']) }), { nil: undefined }),
});
const otherLine = fc.oneof(
  fc.record({ type: fc.constant('summary'), summary: pick(['A summary']), leafUuid: uuid }),
  fc.record({ type: fc.constant('custom-title'), customTitle: pick(['My title']) }),
  fc.record({ type: fc.constant('progress'), sessionId: fc.constant('s1') }),
  fc.record({ type: fc.constant('mystery'), sessionId: fc.constant('s1'), uuid }),
  fc.constant('not an object'),
);
const line = fc.oneof({ weight: 6, arbitrary: messageLine }, { weight: 1, arbitrary: otherLine });
const log = fc.array(line, { minLength: 1, maxLength: 30 });
const cuts = fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 30 });
// The common case: one session written in order, fresh uuids, replies split over lines.
const linearLog = fc.array(
  fc.record({ split: fc.boolean(), blocks: fc.array(block, { minLength: 1, maxLength: 2 }) }),
  { minLength: 1, maxLength: 40 },
);

function stepwise(entries: readonly unknown[], steps: readonly number[], file: string): void {
  const variant = file.includes('agent-') ? 'subagent' : 'session';
  const builder = new SessionBuilder(variant, context(file));
  let at = 0;
  for (let i = 0; at < entries.length; i++) {
    const next = Math.min(entries.length, at + (steps[i % steps.length] ?? 1));
    const live = builder.add(entries.slice(at, next));
    at = next;
    expect(JSON.stringify(live)).toBe(JSON.stringify(batch(entries.slice(0, at), variant, file)));
  }
}

describe('SessionBuilder', () => {
  it('converts a log cut anywhere exactly as the batch converter converts what was read', () => {
    fc.assert(
      fc.property(log, cuts, fc.boolean(), (entries, steps, subagent) => {
        stepwise(entries, steps, subagent ? 'p/s1/subagents/agent-a1.jsonl' : 'p/s1.jsonl');
      }),
      { numRuns: 400 },
    );
  });

  it('goes on from where it stopped for a session written in order, split replies included', () => {
    fc.assert(
      fc.property(linearLog, cuts, (turns, steps) => {
        let parent: string | null = null;
        const entries: unknown[] = [];
        turns.forEach((turn, i) => {
          const type = i % 2 === 0 ? 'user' : 'assistant';
          const parts = type === 'assistant' && turn.split ? turn.blocks : [turn.blocks];
          for (const [j, part] of parts.entries()) {
            const id = `u${i}-${j}`;
            const content = Array.isArray(part) ? part : [part];
            entries.push({
              type,
              uuid: id,
              parentUuid: parent,
              sessionId: 's1',
              timestamp: `2026-01-01T10:${String(i % 60).padStart(2, '0')}:00Z`,
              message: { id: `m${i}`, model: 'claude-opus-4', content },
            });
            parent = id;
          }
        });
        const builder = new SessionBuilder('session', context('p/s1.jsonl'));
        let at = 0;
        for (let i = 0; at < entries.length; i++) {
          const next = Math.min(entries.length, at + (steps[i % steps.length] ?? 1));
          const live = builder.add(entries.slice(at, next));
          at = next;
          const whole = batch(entries.slice(0, at), 'session', 'p/s1.jsonl');
          expect(JSON.stringify(live)).toBe(JSON.stringify(whole));
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('SessionBuilder on a session written in order', () => {
  it('converts the whole log once, then only what each append adds', () => {
    const entries: unknown[] = [];
    let parent: string | null = null;
    const add = (type: string, id: string, message: Record<string, unknown>): void => {
      entries.push({ type, uuid: id, parentUuid: parent, sessionId: 's1', message });
      parent = id;
    };
    for (let i = 0; i < 20; i++) {
      add('user', `q${i}`, { role: 'user', content: `question ${i}` });
      const reply = { id: `m${i}`, role: 'assistant', model: 'claude-opus-4' };
      add('assistant', `a${i}`, { ...reply, content: [{ type: 'thinking', thinking: 'hm' }] });
      add('assistant', `b${i}`, { ...reply, content: [{ type: 'text', text: `answer ${i}` }] });
      add('assistant', `c${i}`, {
        ...reply,
        content: [{ type: 'tool_use', id: `t${i}`, name: 'Read', input: { file_path: '/a' } }],
      });
      add('user', `r${i}`, {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: `t${i}`, content: 'file text' }],
      });
    }
    const builder = new SessionBuilder('session', context('p/s1.jsonl'));
    let before: Conversation | undefined;
    for (let at = 0; at < entries.length; at++) {
      const [live] = builder.add([entries[at]]);
      expect(JSON.stringify(live)).toBe(
        JSON.stringify(batch(entries.slice(0, at + 1), 'session', 'p/s1.jsonl')[0]),
      );
      // Messages an append did not touch are the previous conversation's objects.
      if (before && live) {
        const kept = live.messages.filter((m) => before?.messages.includes(m)).length;
        expect(kept).toBeGreaterThanOrEqual(before.messages.length - 3);
      }
      before = live;
    }
    expect(builder.rebuilds).toBe(1);
  });
});
