import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine, oneLineTitle } from './title.js';

describe('titles are one line of text', () => {
  it('drops ANSI escape codes and joins lines', () => {
    expect(oneLine('\u001b[1;31mAPI Error\u001b[0m:\r\n  401\tunauthorised')).toBe(
      'API Error: 401 unauthorised',
    );
    expect(oneLine('\u001b]8;;https://example.org\u0007link\u001b]8;;\u0007 text')).toBe(
      'link text',
    );
  });

  it('cuts at a word, with …, to at most the length asked', () => {
    expect(oneLineTitle('one two three four five', 12)).toBe('one two…');
    expect(oneLineTitle('   \n ')).toBeNull();
    expect(oneLineTitle('a'.repeat(150), 100)).toBe(`${'a'.repeat(99)}…`);
  });

  it('never holds a line break or control character, and never passes its length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 10, max: 120 }), (text, max) => {
        const title = oneLineTitle(text, max);
        if (title === null) return;
        expect(title.length).toBeLessThanOrEqual(max);
        // eslint-disable-next-line no-control-regex
        expect(title).not.toMatch(/[\u0000-\u001F\u007F-\u009F\u2028\u2029]/);
      }),
    );
  });
});
