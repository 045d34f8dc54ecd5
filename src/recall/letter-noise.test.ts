import { describe, expect, it } from 'vitest';
import {
  aboveLetters,
  LETTER_SHUFFLES,
  letterReferenceTexts,
  PLACEHOLDER_TEXTS,
  shuffledWords,
} from './letter-noise.js';

const sorted = (word: string): string => Array.from(word).sort().join('');
const v = (...values: number[]): Float32Array => Float32Array.from(values);

describe('the query’s letters as a reference', () => {
  it('shuffles the letters of each word, the same way every time, white space kept', () => {
    const text = 'pneu  furado à Évora';
    const shuffles = shuffledWords(text);
    expect(shuffles).toHaveLength(LETTER_SHUFFLES);
    expect(shuffledWords(text)).toEqual(shuffles);
    for (const shuffle of shuffles) {
      const words = shuffle.split(/(\s+)/u);
      const original = text.split(/(\s+)/u);
      expect(words.map(sorted)).toEqual(original.map(sorted));
    }
    // Words of more than a few letters do not survive every shuffle.
    expect(shuffles.some((s) => s !== text)).toBe(true);
    expect(letterReferenceTexts(text)).toEqual([...shuffles, ...PLACEHOLDER_TEXTS]);
  });

  it('shows a hit standing the margin above what the shuffles reach among the hits', () => {
    const query = v(1, 0, 0);
    // The shuffle reaches 0.8 with the second hit (0.6 from the query); the first stands 0.9
    // from the query, 0.1 above what the shuffle reaches.
    const reference = { vectors: [v(0, 1, 0)], margin: 0.05, keep: 0.5 };
    const right = { id: 'right', vector: v(0.9, 0, Math.sqrt(1 - 0.81)) };
    const shape = { id: 'shape', vector: v(0.6, 0.8, 0) };
    expect(aboveLetters([right, shape], query, reference).map((h) => h.id)).toEqual(['right']);
    // Under a margin wider than its lead, nothing is shown.
    expect(aboveLetters([right, shape], query, { ...reference, margin: 0.15 })).toEqual([]);
  });

  it('shows nothing when the shuffles reach the hits as well as the query does', () => {
    // Nonsense: its shuffles are as near its nearest passages as it is.
    const query = v(0.8, 0.6, 0);
    const reference = { vectors: [v(0.6, 0.8, 0), v(0.8, 0.6, 0)], margin: 0.01, keep: 0.2 };
    const hits = [{ vector: v(0.8, 0.6, 0) }, { vector: v(0, 1, 0) }];
    expect(aboveLetters(hits, query, reference)).toEqual([]);
  });

  it('keeps only hits near the best one, and judges nothing without vectors', () => {
    const query = v(1, 0);
    const reference = { vectors: [v(0, 1)], margin: 0.1, keep: 0.5 };
    const hits = [
      { id: 'best', vector: v(1, 0) },
      { id: 'far', vector: v(0.3, Math.sqrt(0.91)) },
    ];
    // Reached: 0.954 (the far hit against the shuffle); the best stands 0.046 above: not shown.
    expect(aboveLetters(hits, query, reference)).toEqual([]);
    const lead = [
      { id: 'best', vector: v(1, 0, 0) },
      { id: 'near', vector: v(0.85, Math.sqrt(1 - 0.85 ** 2), 0) },
      { id: 'mid', vector: v(0.7, 0, Math.sqrt(1 - 0.49)) },
    ];
    // Reached 0.527 (near against the shuffle); best 1, so the least is 0.527 + max(0.1, 0.5 ×
    // 0.473) = 0.764: best and near (0.85) are shown, mid (0.7) is not.
    expect(
      aboveLetters(lead, v(1, 0, 0), { ...reference, vectors: [v(0, 1, 0)] }).map((h) => h.id),
    ).toEqual(['best', 'near']);
    expect(aboveLetters([{ id: 'none', vector: undefined }], query, reference)).toEqual([]);
  });
});
