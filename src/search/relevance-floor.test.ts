import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../stores/search-hit.js';
import { aboveFloor, relevanceFloor } from './relevance-floor.js';

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

describe('aboveFloor', () => {
  const floor = relevanceFloor('all-minilm-l6-v2');

  it('leaves out what is far below the best, and what is below the absolute floor', () => {
    const { hits, below } = aboveFloor(
      [meaning('a', 0.6), meaning('b', 0.45), meaning('c', 0.41), meaning('d', 0.3)],
      floor,
    );
    expect(hits.map((h) => h.messageId)).toEqual(['a', 'b']);
    expect(below).toBe(2);
    expect(aboveFloor([meaning('x', 0.22), meaning('y', 0.21)], floor)).toEqual({
      hits: [],
      below: 2,
    });
  });

  it('keeps every hit matched by words, however far in meaning', () => {
    const words = hit('w', { keyword: { rank: 1 } });
    const both = hit('b', { keyword: { rank: 2 }, semantic: { rank: 9, similarity: 0.05 } });
    const { hits } = aboveFloor([words, meaning('n', 0.21), both, meaning('m', 0.26)], floor);
    expect(hits.map((h) => h.messageId)).toEqual(['w', 'b', 'm']);
  });

  it('holds the multilingual model to its crowded scale: close to the best, not just above 0.8', () => {
    const e5 = relevanceFloor('multilingual-e5-small');
    const { hits } = aboveFloor(
      [meaning('a', 0.88), meaning('b', 0.86), meaning('c', 0.84), meaning('d', 0.82)],
      e5,
    );
    expect(hits.map((h) => h.messageId)).toEqual(['a', 'b']);
    expect(aboveFloor([meaning('x', 0.79)], e5).hits).toEqual([]);
  });

  it('has a measured floor for the default model and a relative one for others', () => {
    expect(floor.absolute).toBeGreaterThan(0);
    expect(relevanceFloor('some-other-model')).toEqual({ absolute: 0, relative: 0.7 });
    expect(relevanceFloor(undefined).absolute).toBe(0);
  });
});
