import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wrapWords } from './wrap-words.js';

describe('wrapWords', () => {
  it('cuts at spaces, indents the continuations, and keeps the gaps within a line', () => {
    expect(
      wrapWords('2025-09-18  chatgpt  Lettre de bail  (conversation b50b43c3)', 40, '  '),
    ).toEqual(['2025-09-18  chatgpt  Lettre de bail', '  (conversation b50b43c3)']);
    expect(wrapWords('    a snippet of several words', 16, '      ')).toEqual([
      '    a snippet of',
      '      several',
      '      words',
    ]);
  });

  it('cuts a word longer than a line after a slash, dash or underscore', () => {
    expect(wrapWords('see /home/someone/.cache/chatgraph/models/all-minilm', 24)).toEqual([
      'see /home/someone/',
      '.cache/chatgraph/models/',
      'all-minilm',
    ]);
  });

  it('never makes a line wider than asked, and loses no word (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z/_-]{1,30}$/), { maxLength: 30 }),
        fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 30, maxLength: 30 }),
        fc.integer({ min: 10, max: 100 }),
        fc.constantFrom('', '  ', '    '),
        (words, gaps, columns, indent) => {
          const text = words
            .map((w, i) => `${' '.repeat(gaps[i] ?? 1)}${w}`)
            .join('')
            .trim();
          const lines = wrapWords(text, columns, indent);
          // A line always has room for eight characters after its indent.
          const width = Math.max(columns, indent.length + 8);
          for (const line of lines) expect(line.length).toBeLessThanOrEqual(width);
          for (const line of lines.slice(1)) expect(line.startsWith(indent)).toBe(true);
          // The characters other than spaces, in order, are the text's.
          expect(lines.join('').replace(/ /g, '')).toBe(text.replace(/ /g, ''));
        },
      ),
    );
  });
});
