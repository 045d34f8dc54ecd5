import { describe, expect, it } from 'vitest';
import {
  aboveLetters,
  LETTER_SHUFFLES,
  letterReferenceTexts,
  PLACEHOLDER_TEXTS,
  readsAsPlaceholder,
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

  it('reads a query as placeholder text when it stands the lead nearer one than its shuffles', () => {
    const query = v(1, 0, 0);
    // Its shuffles at cosine 0.6, a placeholder at 0.95: 0.35 nearer the placeholder.
    const shuffles = [v(0.6, 0.8, 0)];
    const placeholders = [v(0, 0, 1), v(0.95, 0, Math.sqrt(1 - 0.95 ** 2))];
    expect(readsAsPlaceholder(query, shuffles, placeholders, 0.3)).toBe(true);
    expect(readsAsPlaceholder(query, shuffles, placeholders, 0.4)).toBe(false);
    // A real question: nearer its own letters than any placeholder.
    expect(readsAsPlaceholder(query, [v(0.9, Math.sqrt(0.19), 0)], placeholders, 0.3)).toBe(false);
    // Lengths do not count, only directions.
    expect(readsAsPlaceholder(v(3, 0, 0), shuffles, placeholders, 0.3)).toBe(true);
  });

  it('judges by the shuffles alone unless the query reads as placeholder text', () => {
    const query = v(1, 0, 0);
    const shuffle = v(0, 1, 0);
    // A placeholder text near the hits but far from the query (a question in a language whose
    // passages sit near lorem ipsum): it does not join the reference, the hit is shown.
    const placeholder = v(0, 0, 1);
    const hits = [{ id: 'hit', vector: v(0.6, 0, 0.8) }];
    const reference = { vectors: [shuffle], placeholders: [placeholder], margin: 0.05, keep: 0.5 };
    // Without a lead the placeholders always join (it reaches the hit at 0.8, above the hit's 0.6
    // from the query): nothing is shown.
    expect(aboveLetters(hits, query, reference)).toEqual([]);
    expect(aboveLetters(hits, query, { ...reference, placeholderLead: 0.3 })).toEqual(hits);
    // The query is placeholder text itself (0.8 from the placeholder, 0 from its shuffle): the
    // placeholder joins and the hit is not shown.
    const lorem = { ...reference, placeholders: [v(1, 0, 0)], placeholderLead: 0.3 };
    expect(aboveLetters([{ vector: v(0.9, 0, Math.sqrt(0.19)) }], query, lorem)).toEqual([]);
  });
});
