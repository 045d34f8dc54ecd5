import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { SessionBuilder } from './session-builder.js';
import { toClaudeCodeConversation } from './to-conversation.js';
import { cuts, linearEntries, linearLog, log } from '../../../test/support/claude-code-lines.js';

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
        const entries = linearEntries(turns);
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
