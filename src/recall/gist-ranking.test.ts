import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../stores/search-hit.js';
import { GIST_WEIGHT, rankWithGists } from './gist-ranking.js';

function hit(
  conversationId: string,
  score: number,
  kind: SearchHit['kind'] = 'message',
): SearchHit {
  return {
    conversationId,
    platformConversationId: conversationId,
    title: conversationId,
    source: 'chatgpt',
    messageId: kind === 'title' ? '' : `${conversationId}-${String(score)}`,
    role: 'user',
    createdAt: '2025-01-01T00:00:00Z',
    snippet: '',
    score,
    kind,
  };
}

describe('rankWithGists', () => {
  it('puts a passage of a conversation whose gist is near above a slightly nearer stray one', () => {
    // Issue 43: e5 finds a Spanish conversation's stray sentence first for a question whose
    // conversation, by its gist, is about it as a whole.
    const ranked = rankWithGists([
      hit('stray', 0.85),
      hit('about', 0.845),
      hit('about', 0.84, 'title'),
      hit('other', 0.8),
    ]);
    expect(ranked.map((h) => h.conversationId)).toEqual(['about', 'stray', 'about', 'other']);
    expect(ranked[0]?.score).toBe(0.845);
  });

  it('keeps the order of similarity when the gists do not differ, and the scores as they were', () => {
    const hits = [hit('a', 0.9), hit('b', 0.8), hit('c', 0.7)];
    const ranked = rankWithGists(hits);
    expect(ranked).toEqual(hits);
    expect(GIST_WEIGHT).toBeGreaterThan(0);
  });

  it('gives nothing for nothing', () => {
    expect(rankWithGists([])).toEqual([]);
  });
});
