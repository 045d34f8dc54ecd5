import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SearchHit } from './search-hit.js';
import { groupByConversation } from './group-by-conversation.js';

function hit(conversationId: string, messageId: string, score: number): SearchHit {
  return {
    conversationId,
    platformConversationId: `p-${conversationId}`,
    title: `title ${conversationId}`,
    source: 'chatgpt',
    messageId,
    role: 'user',
    createdAt: '2024-01-01T00:00:00.000Z',
    snippet: `snippet ${messageId}`,
    score,
  };
}

const rows = fc
  .array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 40 })
  .map((ids) => ids.map((c, i) => hit(c, `m${String(i)}`, 100 - i)));

describe('groupByConversation', () => {
  it('folds one conversation’s rows into one entry, its best first', () => {
    const grouped = groupByConversation([
      hit('a', 'm1', 9),
      hit('a', 'm2', 8),
      hit('b', 'm3', 7),
      hit('a', 'm4', 6),
      { ...hit('', 'k', 5), kind: 'memory' },
      hit('a', 'm5', 4),
      hit('a', 'm6', 3),
    ]);
    expect(grouped.map((g) => g.conversationId)).toEqual(['a', 'b']);
    expect(grouped[0]?.best.messageId).toBe('m1');
    expect(grouped[0]?.more).toBe(4);
    expect(grouped[0]?.passages.map((p) => p.messageId)).toEqual(['m2', 'm4', 'm5']);
    expect(grouped[1]?.more).toBe(0);
  });

  it('has one entry per conversation, in the rank of its best row, counts adding up', () => {
    fc.assert(
      fc.property(rows, fc.integer({ min: 0, max: 5 }), (hits, passages) => {
        const grouped = groupByConversation(hits, passages);
        const order = [...new Set(hits.map((h) => h.conversationId))];
        expect(grouped.map((g) => g.conversationId)).toEqual(order);
        for (const g of grouped) {
          const own = hits.filter((h) => h.conversationId === g.conversationId);
          expect(g.best.messageId).toBe(own[0]?.messageId);
          expect(g.more).toBe(own.length - 1);
          expect(g.passages.map((p) => p.messageId)).toEqual(
            own.slice(1, 1 + passages).map((h) => h.messageId),
          );
        }
        expect(grouped.reduce((n, g) => n + 1 + g.more, 0)).toBe(hits.length);
      }),
    );
  });
});
