import { describe, expect, it } from 'vitest';
import type { SearchHit } from './search-hit.js';
import { answerSummary } from './answer-summary.js';
import { groupByConversation } from './group-by-conversation.js';

function hit(conversationId: string, why: SearchHit['why']): SearchHit {
  return {
    conversationId,
    platformConversationId: conversationId,
    title: conversationId,
    source: 'chatgpt',
    messageId: `${conversationId}:m`,
    role: 'user',
    createdAt: '2024-01-01T00:00:00.000Z',
    snippet: '',
    score: 0,
    ...(why ? { why } : {}),
  };
}
const words = { keyword: { rank: 1 } };
const meaning = { semantic: { rank: 1, similarity: 0.5 } };

describe('answerSummary', () => {
  it('says how many conversations have the words and how many more are close in meaning', () => {
    const found = groupByConversation([hit('a', words), hit('b', meaning), hit('c', meaning)]);
    expect(answerSummary('hybrid', found, 1)).toBe(
      '1 conversation has the word; 2 more are close in meaning',
    );
    expect(answerSummary('hybrid', found.slice(0, 1), 2, 40)).toBe(
      '1 conversation has the words; no other is close in meaning; 40 passages were too far in meaning to show',
    );
    expect(answerSummary('semantic', found.slice(1), 1, 1)).toBe(
      '2 conversations are close in meaning; 1 passage was too far in meaning to show',
    );
    expect(answerSummary('keyword', [], 1)).toBe('0 conversations have the word');
  });

  it('starts with the exact count of conversations holding the words, whatever the page shows', () => {
    const found = groupByConversation([hit('a', words), hit('b', meaning)]);
    expect(answerSummary('keyword', found.slice(0, 1), 1, 0, 9)).toBe(
      '9 conversations have the word',
    );
    expect(answerSummary('hybrid', found, 1, 0, 9)).toBe(
      '9 conversations have the word; 1 more is close in meaning',
    );
    expect(answerSummary('hybrid', found.slice(1), 1, 3, 0)).toBe(
      '0 conversations have the word; 1 is close in meaning; 3 passages were too far in meaning to show',
    );
    expect(answerSummary('hybrid', [], 2, 5, 0)).toBe(
      '0 conversations have the words; none is close in meaning; 5 passages were too far in meaning to show',
    );
  });

  it('says a question left to its words was not searched by meaning, with no passages "too far"', () => {
    const found = groupByConversation([hit('a', words)]);
    expect(answerSummary('hybrid', found, 4, 150, 1, true)).toBe(
      '1 conversation has the words; not searched by meaning',
    );
    expect(answerSummary('hybrid', [], 7, 150, 0, true)).toBe(
      '0 conversations have the words; not searched by meaning',
    );
    expect(answerSummary('semantic', [], 7, 150, undefined, true)).toBe(
      '0 conversations have the words; not searched by meaning',
    );
  });
});
