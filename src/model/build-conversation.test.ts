import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildConversation, RAW_TEMPORAL_KEY } from './build-conversation.js';
import type { Diagnostic } from './diagnostic.js';
import type { DraftConversation, DraftMessage } from './draft.js';

function draftMessage(key: string, parentKey: string | null, createdAt?: string): DraftMessage {
  return {
    key,
    parentKey,
    provider_message_id: key,
    role: 'user',
    content: { type: 'text', text: key },
    createdAt,
    model: null,
    is_thought: false,
    attachments: [],
    citations: [],
    tool_calls: [],
    raw_metadata: {},
  };
}

function draft(
  messages: DraftMessage[],
  extra: Partial<DraftConversation> = {},
): DraftConversation {
  return {
    provider: {
      name: 'chatgpt',
      conversation_id: 'c1',
      account_id: null,
      export_format_version: null,
    },
    title: 't',
    createdAt: '2024-01-01T00:00:00.000000Z',
    updatedAt: undefined,
    messages,
    shownLeafKey: undefined,
    model: null,
    system_instruction: null,
    is_archived: false,
    raw_metadata: {},
    assistantName: 'ChatGPT',
    ...extra,
  };
}

function build(d: DraftConversation): { diagnostics: Omit<Diagnostic, 'file'>[]; ms: number } & {
  conversation: ReturnType<typeof buildConversation>;
} {
  const diagnostics: Omit<Diagnostic, 'file'>[] = [];
  const start = performance.now();
  const conversation = buildConversation(d, {
    report: (x) => diagnostics.push(x),
    record: '#0',
    fallbackTime: undefined,
  });
  return { conversation, diagnostics, ms: performance.now() - start };
}

const time = (second: number): string =>
  `2024-01-01T00:00:${String(second).padStart(2, '0')}.000000Z`;

describe('buildConversation', () => {
  it('settles chains and forks in time linear in their size', () => {
    const chain = (n: number): DraftMessage[] =>
      Array.from({ length: n }, (_, i) =>
        draftMessage(`m${i}`, i === 0 ? null : `m${i - 1}`, time(1)),
      );
    const fork = (n: number): DraftMessage[] => [
      draftMessage('root', null, time(1)),
      ...Array.from({ length: n }, (_, i) => draftMessage(`k${i}`, 'root', time(2))),
    ];
    for (const shape of [chain, fork]) {
      const small = build(draft(shape(10_000)));
      const large = build(draft(shape(100_000)));
      expect(large.conversation.messages.length).toBeGreaterThanOrEqual(100_000);
      // Ten times the messages: about ten times the time when linear, a hundred when quadratic
      // (the old cycle check took minutes on the chain). The margin absorbs a busy machine.
      expect(large.ms / Math.max(small.ms, 50)).toBeLessThan(40);
    }
    expect(build(draft(fork(1000))).conversation.messages[0]?.children_ids).toHaveLength(1000);
  }, 120_000);

  it('cuts every cycle once and keeps each message (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.nat({ max: 30 }), { nil: null }), { minLength: 1, maxLength: 30 }),
        (parents) => {
          const messages = parents.map((p, i) =>
            draftMessage(`m${i}`, p === null ? null : `m${p % parents.length}`, time(1)),
          );
          const { conversation } = build(draft(messages));
          expect(conversation.messages).toHaveLength(parents.length);
          // Every message reaches a root by its parent links: no cycle is left.
          const byId = new Map(conversation.messages.map((m) => [m.id, m]));
          for (const message of conversation.messages) {
            let at = message;
            for (let steps = 0; at.parent_id !== null; steps++) {
              expect(steps).toBeLessThan(parents.length);
              const parent = byId.get(at.parent_id);
              if (!parent) throw new Error('dangling');
              at = parent;
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never infers a time later than the first child’s', () => {
    // ChatGPT: an empty hidden system message with no time, before a user message that is
    // earlier than the conversation's create_time.
    const { conversation } = build(
      draft([draftMessage('sys', null), draftMessage('u', 'sys', time(5))], {
        createdAt: time(30),
      }),
    );
    const [sys, user] = conversation.messages;
    expect(sys?.created_at).toBe(time(5));
    expect(user?.created_at).toBe(time(5));
  });

  it('never writes an update time before the creation time, keeps the raw pair and says so', () => {
    const { conversation, diagnostics } = build(
      draft([draftMessage('u', null, time(5))], { createdAt: time(30), updatedAt: time(10) }),
    );
    expect(conversation.temporal).toEqual({ created_at: time(30), updated_at: time(30) });
    expect(conversation.raw_metadata[RAW_TEMPORAL_KEY]).toEqual({
      created_at: time(30),
      updated_at: time(10),
    });
    expect(diagnostics.map((d) => d.code)).toContain('updated-before-created');
  });
});
