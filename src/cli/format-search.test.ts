import { describe, expect, it } from 'vitest';
import { groupByConversation } from '../search/group-by-conversation.js';
import type { SearchHit } from '../api/query.js';
import { formatConversations, formatSearch } from './format-search.js';

const OURS = 'c0ffee11-2222-4333-8444-555566667777';
const OTHER = 'c0ffee11-9999-4333-8444-555566667777';
const PLATFORM = '6a1b2c3d-platform-conversation-id';

function hit(conversationId: string, part: string, kind?: SearchHit['kind']): SearchHit {
  return {
    conversationId,
    platformConversationId: PLATFORM,
    title: 'Solar panels',
    source: 'chatgpt',
    messageId: `${conversationId}:${part}`,
    role: 'user',
    createdAt: '2024-03-01T10:00:00Z',
    snippet: 'about solar panels',
    score: 1,
    why: { keyword: { rank: 1 } },
    ...(kind ? { kind } : {}),
  };
}

const hits = [
  hit(OURS, '5e5e5e5e-aaaa-4000-8000-000000000001'),
  hit(OTHER, '9a9a9a9a-bbbb-4000-8000-000000000002'),
];
const same = (s: string): string => s;
const query = { text: 'solar', limit: 20 };

// One id per conversation on a hit line: ours, short; the platform's is for the JSON.
function expectOneShortId(line: string, conversation: string, message: string): void {
  expect(line).toContain(`conversation ${conversation}`);
  expect(line).toContain(`message ${message}`);
  expect(line).not.toContain(PLATFORM);
  expect(line).not.toContain(OURS);
  expect(line.match(/c0ffee11/g)).toHaveLength(1);
}

describe('search hit lines', () => {
  it('grouped: each conversation by our short id, its best message by its short id', () => {
    const lines = formatConversations(
      {
        mode: 'keyword',
        conversations: groupByConversation(hits),
        memories: [],
        matches: 2,
        matchesCapped: false,
        offset: 0,
        more: false,
        summary: '2 conversations have the word',
      },
      query,
      same,
    );
    const heads = lines.filter((l) => l.startsWith('2024-'));
    expect(heads).toHaveLength(2);
    // The two ids share 8 characters: each is as long as it takes to tell them apart.
    expectOneShortId(
      `${heads[0] ?? ''}${lines[lines.indexOf(heads[0] ?? '') + 1] ?? ''}`,
      'c0ffee11-2',
      '5e5e5e5e',
    );
    expectOneShortId(
      `${heads[1] ?? ''}${lines[lines.indexOf(heads[1] ?? '') + 1] ?? ''}`,
      'c0ffee11-9',
      '9a9a9a9a',
    );
  });

  it('per message: the same short ids, never the platform’s', () => {
    const lines = formatSearch(
      { mode: 'keyword', hits, matches: 2, matchesCapped: false, ranked: 2 },
      query,
      same,
    );
    const heads = lines.filter((l) => l.startsWith('2024-'));
    expectOneShortId(heads[0] ?? '', 'c0ffee11-2', '5e5e5e5e');
    expectOneShortId(heads[1] ?? '', 'c0ffee11-9', '9a9a9a9a');
  });
});
