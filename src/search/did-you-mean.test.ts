import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { editDistance, nearestTerms, rewriteSearch, surfaceForm } from './did-you-mean.js';

describe('did you mean', () => {
  it('measures edit distance, stopping past the bound', () => {
    expect(editDistance('focacia', 'focaccia')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), (a, b) => {
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, a)).toBe(0);
      }),
    );
  });

  it('picks near indexed stems, the most frequent first on a tie, and the word as written', () => {
    const vocabulary = [
      { term: 'focaccia', count: 3 },
      { term: 'focus', count: 90 },
      { term: 'foccacia', count: 1 },
    ];
    expect(nearestTerms('focacia', vocabulary)).toEqual(['focaccia', 'foccacia']);
    expect(surfaceForm('decorater', ['I love Python Decorators, and decor'], 'decor')).toBe(
      'decorators',
    );
    expect(surfaceForm('xyzzy', ['nothing near here'])).toBeUndefined();
  });

  it('rewrites only the replaced words of a search, keeping its syntax', () => {
    expect(rewriteSearch('"Focacia starter" -levain', new Map([['focacia', 'focaccia']]))).toBe(
      '"focaccia starter" -levain',
    );
  });
});
