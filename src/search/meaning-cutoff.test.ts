import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../stores/search-hit.js';
import {
  closeInMeaning,
  leastSimilarity,
  NO_TEST,
  noiseLevel,
  standingOut,
} from './meaning-cutoff.js';

function hit(id: string, why: SearchHit['why']): SearchHit {
  return {
    conversationId: id,
    platformConversationId: id,
    title: id,
    source: 'chatgpt',
    messageId: id,
    role: 'user',
    createdAt: '2024-01-01T00:00:00.000Z',
    snippet: id,
    score: 0,
    ...(why ? { why } : {}),
  };
}
const meaning = (id: string, similarity: number): SearchHit =>
  hit(id, { semantic: { rank: 1, similarity } });

describe('the meaning cutoff', () => {
  it('takes a query’s noise level as its highest cosine to the noise vectors, any length', () => {
    const query = Float32Array.from([3, 4]);
    const noise = [Float32Array.from([1, 0]), Float32Array.from([0, 2])];
    expect(noiseLevel(query, noise)).toBeCloseTo(0.8);
    expect(noiseLevel(query, [])).toBe(-Infinity);
  });

  it('answers nothing when the best hit does not stand the margin above the noise level', () => {
    const crowded = { noise: 0.84, margin: 0.005, keep: 0.3, relatedZ: 3 };
    // multilingual-e5-small's scale: every similarity near 0.83, the query's nonsense too.
    const { hits, below } = closeInMeaning(
      [meaning('a', 0.843), meaning('b', 0.83), meaning('c', 0.82)],
      crowded,
    );
    expect(hits).toEqual([]);
    expect(below).toBe(3);
  });

  it('keeps hits near the best one, by their share of its lead over the noise level', () => {
    const test = { noise: 0.2, margin: 0.08, keep: 0.5, relatedZ: 3 };
    expect(leastSimilarity(0.6, test)).toBeCloseTo(0.4);
    const { hits } = closeInMeaning(
      [meaning('a', 0.6), meaning('b', 0.45), meaning('c', 0.39)],
      test,
    );
    expect(hits.map((h) => h.messageId)).toEqual(['a', 'b']);
  });

  it('keeps every hit matched by words, however far in meaning', () => {
    const test = { noise: 0.5, margin: 0.1, keep: 0.5, relatedZ: 3 };
    const words = hit('w', { keyword: { rank: 1 } });
    const both = hit('b', { keyword: { rank: 2 }, semantic: { rank: 9, similarity: 0.05 } });
    const { hits } = closeInMeaning([words, meaning('n', 0.2), both], test);
    expect(hits.map((h) => h.messageId)).toEqual(['w', 'b']);
  });

  it('names neighbours standing out from an item’s own similarities, none among too few', () => {
    const crowded = [0.83, 0.84, 0.82, 0.83, 0.85, 0.84, 0.83, 0.82, 0.83, 0.9];
    expect(standingOut(crowded, 2.6)).toEqual([9]);
    expect(standingOut(crowded.slice(0, 9), 2.6)).toEqual([]);
    expect(standingOut([0.9, 0.1], 0)).toEqual([]);
  });

  it('keeps everything without a test (no noise vectors to judge by)', () => {
    expect(closeInMeaning([meaning('x', -0.2)], NO_TEST).hits).toHaveLength(1);
  });
});
