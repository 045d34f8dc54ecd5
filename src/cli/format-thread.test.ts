import { describe, expect, it } from 'vitest';
import type { ThreadMessage } from '../api/view.js';
import { formatTranscript } from './format-thread.js';

const said = (id: string, content: string, parentId: string | null = null): ThreadMessage => ({
  id,
  role: 'assistant',
  content,
  createdAt: '2025-02-09T09:15:00Z',
  model: null,
  parentId,
  isThought: false,
  hidden: false,
  onShownThread: true,
  depth: 0,
  attachments: [],
});

const TEXT = [
  'That is very normal, and it usually means nothing is wrong: the big rise in the first days comes from bacteria.',
  '- **Feed it at a steady time**, once or twice a day, 1:1:1 (starter : flour : water by weight).',
  '```sh',
  'curl --silent --fail https://example.org/a/very/long/path/that/must/not/be/cut/anywhere/at/all',
  '```',
  '    an indented line of code that is long enough to pass the width of the terminal easily',
  '| a table row | that is long enough to pass the width of the terminal | and stays whole |',
].join('\n');

describe('thread on a terminal', () => {
  it('wraps prose at the width, lists under their text, and leaves code and tables whole', () => {
    const lines = formatTranscript(undefined, [said('m1', TEXT)], {
      allBranches: false,
      width: 60,
      wrap: true,
    })
      .join('\n')
      .split('\n');
    const at = (start: string): number => lines.findIndex((line) => line.startsWith(start));
    expect(lines.slice(at('That is'), at('That is') + 2)).toEqual([
      'That is very normal, and it usually means nothing is wrong:',
      'the big rise in the first days comes from bacteria.',
    ]);
    expect(lines.slice(at('- **Feed'), at('- **Feed') + 2)).toEqual([
      '- **Feed it at a steady time**, once or twice a day, 1:1:1',
      '  (starter : flour : water by weight).',
    ]);
    for (const whole of TEXT.split('\n').slice(3)) expect(lines).toContain(whole);
    // Every line of prose fits.
    for (const line of lines.slice(at('That is'), at('```sh')))
      expect(line.length).toBeLessThanOrEqual(60);
  });

  it('leaves the text as it is when not on a terminal', () => {
    const lines = formatTranscript(undefined, [said('m1', TEXT)], {
      allBranches: false,
      width: 60,
    });
    expect(lines.join('\n')).toContain(TEXT);
  });
});
