import { describe, expect, it } from 'vitest';
import { InlineTexts } from '../../bundle/inline-text.js';
import type { Conversation } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { toCodexConversation } from './to-conversation.js';

function convert(lines: unknown[]): Conversation | undefined {
  const context: ConversionContext = {
    record: '#0',
    file: 'rollout-2026-09-01T10-00-00-019fcf70-1111-7000-8000-000000000001.jsonl',
    fallbackTime: undefined,
    report: () => undefined,
    resolveAsset: () => undefined,
    attachText: new InlineTexts().attach,
  };
  return toCodexConversation(
    { entries: lines, badLines: [], cutLastLine: false },
    'rollout',
    context,
  );
}

const line = (type: string, payload: unknown): unknown => ({
  timestamp: '2026-09-01T10:00:00.000Z',
  type,
  payload,
});

describe('a Codex rollout', () => {
  it('reads the items a TRAE CLI history_mutation appends, and its token_usage_record', () => {
    const conversation = convert([
      line('session_meta', {
        id: '019fcf70-1111-7000-8000-000000000001',
        cwd: '/w',
        cli_version: '0.200.19',
      }),
      line('history_mutation', {
        operation: 'append',
        items: [
          {
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: 'List the parsers.' }],
          },
          {
            type: 'message',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'codex.go and traex.go.' }],
          },
        ],
      }),
      line('token_usage_record', {
        usage: { input_tokens: 100, cached_input_tokens: 40, output_tokens: 12 },
      }),
    ]);
    expect(conversation?.messages.map((m) => [m.role, m.content?.text])).toEqual([
      ['user', 'List the parsers.'],
      ['assistant', 'codex.go and traex.go.'],
    ]);
    expect(conversation?.messages[1]?.raw_metadata.token_usage).toEqual({
      input_tokens: 60,
      output_tokens: 12,
      cache_read_tokens: 40,
    });
  });

  it('keeps an event the items do not say, and drops one they say in full or wrapped in IDE context', () => {
    const conversation = convert([
      line('session_meta', { id: '019fcf70-1111-7000-8000-000000000001' }),
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: '## My request for Codex:\nRename the rain gauge driver.' },
        ],
      }),
      line('event_msg', { type: 'user_message', message: 'Rename the rain gauge driver.' }),
      line('event_msg', { type: 'agent_message', message: 'Renamed to tipping_bucket.py.' }),
    ]);
    expect(conversation?.messages.map((m) => m.content?.text)).toEqual([
      '## My request for Codex:\nRename the rain gauge driver.',
      'Renamed to tipping_bucket.py.',
    ]);
  });
  it('puts the tokens Codex 0.60 counts before writing the reply on that turn’s reply, none lost', () => {
    const tokens = (last: number[], total: number[]): unknown =>
      line('event_msg', {
        type: 'token_count',
        info: {
          last_token_usage: {
            input_tokens: last[0],
            cached_input_tokens: last[1],
            output_tokens: last[2],
          },
          total_token_usage: {
            input_tokens: total[0],
            cached_input_tokens: total[1],
            output_tokens: total[2],
          },
        },
      });
    const ask = (text: string): unknown[] => [
      line('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text }],
      }),
      line('event_msg', { type: 'user_message', message: text }),
    ];
    const say = (text: string): unknown =>
      line('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text }],
      });
    const conversation = convert([
      line('session_meta', { id: '019fcf70-1111-7000-8000-000000000001', cli_version: '0.60.1' }),
      ...ask('Make a chess board.'),
      // As 0.60 writes a call: its events, its tokens, then its items.
      line('event_msg', { type: 'agent_reasoning', text: 'Board first.' }),
      tokens([3559, 3072, 31], [3559, 3072, 31]),
      line('response_item', {
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'Board first.' }],
      }),
      say('Here is the board.'),
      ...ask('Now the pieces.'),
      tokens([4000, 3500, 50], [7559, 6572, 81]),
      say('Here are the pieces.'),
    ]);
    const replies = (conversation?.messages ?? []).filter(
      (m) => m.role === 'assistant' && m.raw_metadata.token_usage !== undefined,
    );
    expect(replies.map((m) => [m.content?.text, m.raw_metadata.token_usage])).toEqual([
      ['Here is the board.', { input_tokens: 487, output_tokens: 31, cache_read_tokens: 3072 }],
      ['Here are the pieces.', { input_tokens: 500, output_tokens: 50, cache_read_tokens: 3500 }],
    ]);
  });
});
