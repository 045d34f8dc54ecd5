import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  editDistance,
  languageSurfaceForm,
  nearestLanguageTerms,
  nearestTerms,
  rewriteSearch,
  surfaceForm,
} from './did-you-mean.js';

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

  it('counts two neighbouring letters swapped as one edit, as people mistype', () => {
    expect(editDistance('statrer', 'starter')).toBe(1);
    expect(editDistance('levian', 'levain')).toBe(1);
    expect(editDistance('ab', 'ba')).toBe(1);
    // Optimal string alignment: a swapped pair is not edited again.
    expect(editDistance('ca', 'abc')).toBe(3);
    // The bounded distance is the whole one, or the bound plus one past it, on letters drawn
    // from a small alphabet so that swaps and repeats are common.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        const whole = alignment(a, b);
        expect(editDistance(a, b)).toBe(whole);
        expect(editDistance(a, b, max)).toBe(Math.min(whole, max + 1));
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

  it('finds near stems of other languages by the typed word stemmed there, and the word as written', () => {
    const french = [
      { term: 'log', count: 3 },
      { term: 'logiciel', count: 9 },
      { term: 'lou', count: 2 },
    ];
    // Snowball makes "logem" of the typo and "log" of "logement": two edits, allowed at 8 letters.
    expect(nearestLanguageTerms('logemant', french, ['fr'])).toEqual(['log']);
    expect(
      languageSurfaceForm('logemant', ['Les logements, le logement, un log'], 'log', ['fr']),
    ).toBe('logement');
    const german = [{ term: 'wohnung', count: 1 }];
    expect(nearestLanguageTerms('Wohnunk', german, ['de'])).toEqual(['wohnung']);
    expect(
      languageSurfaceForm('Wohnunk', ['bezahlbare Wohnungen in Berlin'], 'wohnung', ['de']),
    ).toBe('wohnungen');
    expect(nearestLanguageTerms('zorblax', german, ['de'])).toEqual([]);
  });

  it('suggests no word far shorter than the typed one, though their stems are near', () => {
    // Swedish "lagar" has the Spanish stem "lag", one edit from "la": "la" is three from "lagar".
    const spanish = [{ term: 'la', count: 50 }];
    expect(nearestLanguageTerms('lagar', spanish, ['es'])).toEqual(['la']);
    expect(languageSurfaceForm('lagar', ['la casa y la mesa'], 'la', ['es'])).toBeUndefined();
    // One letter shorter is one edit: still a suggestion.
    expect(languageSurfaceForm('casaa', ['la casa'], 'cas', ['es'])).toBe('casa');
  });

  it('suggests nothing for short words, nor a word two edits away as written', () => {
    const vocabulary = [
      { term: 'do', count: 40 },
      { term: 'tue', count: 3 },
      { term: 'bring', count: 5 },
    ];
    expect(nearestTerms('dog', vocabulary)).toEqual([]);
    expect(nearestTerms('tune', vocabulary)).toEqual([]);
    // Porter's "bridg" is one edit from "bring", the words two.
    expect(nearestTerms('bridge', vocabulary)).toEqual(['bring']);
    expect(surfaceForm('bridge', ['we bring it'], 'bring')).toBeUndefined();
  });

  it('rewrites only the replaced words of a search, keeping its syntax', () => {
    expect(rewriteSearch('"Focacia starter" -levain', new Map([['focacia', 'focaccia']]))).toBe(
      '"focaccia starter" -levain',
    );
  });
});

/** Optimal string alignment distance, the textbook table in full (no early stop). */
function alignment(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? 0;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      let value = Math.min(
        at(i - 1, j) + 1,
        at(i, j - 1) + 1,
        at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, at(i - 2, j - 2) + 1);
      const row = d[i];
      if (row) row[j] = value;
    }
  return at(a.length, b.length);
}
