import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyUpdates, CanvasBudget, firstMatch } from './canvas-patterns.js';

const TEXT = 'Day 1: train to Sintra.\nDay 2: train back.\n';
const budget = (): CanvasBudget => new CanvasBudget(10_000);
const apply = (text: string, ...updates: object[]): string => {
  const result = applyUpdates(text, updates, budget());
  if ('error' in result) throw new Error(result.error);
  return result.text;
};

describe('canvas updates, applied as the platform applies them', () => {
  it.each([
    ['.*', true],
    ['.*', false],
    ['^.*$', true],
    ['^.*$', false],
    ['(?s).*', true],
    ['.', true],
    ['.', false],
  ])('rewrites the whole document once with %s (multiple %s)', (pattern, multiple) => {
    expect(apply(TEXT, { pattern, multiple, replacement: 'New plan.\n' })).toBe('New plan.\n');
  });

  it('replaces every occurrence of a phrase with multiple, the first without', () => {
    expect(apply(TEXT, { pattern: 'train', multiple: true, replacement: 'car' })).toBe(
      'Day 1: car to Sintra.\nDay 2: car back.\n',
    );
    expect(apply(TEXT, { pattern: 'train', multiple: false, replacement: 'car' })).toBe(
      'Day 1: car to Sintra.\nDay 2: train back.\n',
    );
  });

  it("expands Python's groups, named groups and escapes in the replacement", () => {
    expect(apply(TEXT, { pattern: 'Day (\\d)', multiple: true, replacement: 'Day \\1 of 2' })).toBe(
      'Day 1 of 2: train to Sintra.\nDay 2 of 2: train back.\n',
    );
    expect(
      apply(TEXT, {
        pattern: '(?P<place>Sintra)',
        multiple: false,
        replacement: '\\g<place> (by the coast)\\n',
      }),
    ).toBe('Day 1: train to Sintra (by the coast)\n.\nDay 2: train back.\n');
  });

  it('applies the look-arounds and back-references RE2 lacks on the other engine', () => {
    expect(apply(TEXT, { pattern: '(?<=Day 2: )train', replacement: 'bus' })).toBe(
      'Day 1: train to Sintra.\nDay 2: bus back.\n',
    );
    expect(apply('a bad bad day', { pattern: '(\\w+) \\1', replacement: '\\1' })).toBe('a bad day');
  });

  it('applies the updates of one call in order, and says when one matches nothing', () => {
    expect(
      apply(
        TEXT,
        { pattern: 'Sintra', replacement: 'Cascais' },
        { pattern: 'Cascais', replacement: 'Sintra and Cascais' },
      ),
    ).toBe('Day 1: train to Sintra and Cascais.\nDay 2: train back.\n');
    expect(applyUpdates(TEXT, [{ pattern: 'Porto', replacement: 'x' }], budget())).toEqual({
      error: 'the pattern "Porto" matches nothing',
    });
  });

  it('runs a catastrophic pattern in linear time: (a+)+$ on 2 KB says it matches nothing', () => {
    const text = `${'a'.repeat(2048)}!`;
    expect(applyUpdates(text, [{ pattern: '(a+)+$', replacement: 'b' }], budget())).toEqual({
      error: 'the pattern "(a+)+$" matches nothing',
    });
  });

  it('stops a catastrophic pattern that only the time-limited engine can run', () => {
    const text = `${'a'.repeat(64)}!`;
    const result = applyUpdates(text, [{ pattern: '(a+)+(?=b)', replacement: 'c' }], budget());
    expect('error' in result ? result.error : '').toMatch(
      /could not be applied \(it ran past 1000 ms and was stopped\)/,
    );
  });

  it('refuses an update that doubles the document past what the calls could write', () => {
    const limit = new CanvasBudget(5000);
    let text = 'x'.repeat(4600);
    let refused = '';
    for (let n = 0; n < 25; n++) {
      const result = applyUpdates(text, [{ pattern: '(.*)', replacement: '\\1\\1' }], limit);
      if ('error' in result) {
        refused = result.error;
        break;
      }
      text = result.text;
    }
    expect(text.length).toBeLessThanOrEqual(limit.maxDocument);
    expect(refused).toMatch(/longer than 262144 characters/);
  });

  it('stops reading once the patterns have read what the calls allow', () => {
    const limit = new CanvasBudget(0);
    const text = 'y'.repeat(1 << 20);
    let error = '';
    for (let n = 0; n < 100 && error === ''; n++) {
      const result = applyUpdates(text, [{ pattern: 'z', replacement: 'w' }], limit);
      if ('error' in result && !result.error.includes('matches nothing')) error = result.error;
    }
    expect(error).toMatch(/have read .* the text its calls allow/);
  });

  it('finds a comment’s passage, and none for a pattern it cannot read', () => {
    expect(firstMatch(TEXT, 'train to \\w+', budget())).toBe('train to Sintra');
    expect(firstMatch(TEXT, '(unclosed', budget())).toBeUndefined();
  });

  it('replaces a literal phrase as split and join do, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.stringMatching(/^[a-z]{1,4}$/),
        fc.string({ maxLength: 8 }).filter((r) => !r.includes('\\')),
        (text, word, replacement) => {
          const result = applyUpdates(
            text,
            [{ pattern: word, multiple: true, replacement }],
            budget(),
          );
          if (!text.includes(word)) expect(result).toHaveProperty('error');
          else expect(result).toEqual({ text: text.split(word).join(replacement) });
        },
      ),
    );
  });
});
