import { describe, expect, it } from 'vitest';
import { readChatHistory, readInputHistory, tokensLine } from './chat-history.js';

describe('readChatHistory', () => {
  it('tells the person’s input (two spaces end each line) from a heading in a reply, and keeps a reply’s fenced code whole', () => {
    const runs = readChatHistory(
      [
        '# aider chat started at 2026-06-09 14:01:00',
        '',
        '#### add a retry  ',
        '#### to the webhook  ',
        '',
        'Here is the plan:',
        '',
        '#### Step 1',
        'Wrap the call in a loop.',
        '```diff',
        '> not Aider’s output',
        '>>>>>>> REPLACE',
        '```',
        '',
        '> Applied edit to src/webhook.py  ',
        '',
      ].join('\n'),
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]?.blocks.map((b) => [b.kind, b.text])).toEqual([
      ['user', 'add a retry\nto the webhook'],
      [
        'assistant',
        'Here is the plan:\n\n#### Step 1\nWrap the call in a loop.\n```diff\n> not Aider’s output\n>>>>>>> REPLACE\n```',
      ],
      ['aider', 'Applied edit to src/webhook.py'],
    ]);
  });

  it('reads a run’s input history and Aider’s token lines', () => {
    expect(readInputHistory('\n# 2025-03-14 09:13:20.104512\n+two\n+lines\n')).toEqual([
      { time: '2025-03-14 09:13:20.104512', text: 'two\nlines' },
    ]);
    expect(tokensLine('Tokens: 12k sent, 1.1k cache write, 2.5k cache hit, 310 received.')).toEqual(
      {
        sent: 12000,
        cacheWrite: 1100,
        cacheHit: 2500,
        received: 310,
      },
    );
    expect(tokensLine('Tokens: many sent')).toBeUndefined();
  });
});
