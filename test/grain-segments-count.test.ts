// Issue 46, ninth pass: the conversations holding a word, a prefix or an OR are counted from
// their words' documents as FTS5 reads them (no distinct count) when every matching document is
// its conversation's first segment. A live append gives a conversation a segment of its own:
// the word in both of its segments, or in the appended one alone, is still one conversation.
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import type { GraphBatch, GraphEdge, GraphNode } from '../src/graph/graph-batch.js';
import { CONVERSATION_SEGMENTS } from '../src/stores/sqlite/conversation-words.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { tempDir } from './support/convert-to-temp.js';

function batch(c: number, texts: string[]): GraphBatch {
  const id = `c${c}`;
  const nodes: GraphNode[] = [
    {
      label: 'Conversation',
      id,
      properties: { name: id, title: id, conversation_id: id, source: 'chatgpt' },
    },
  ];
  const edges: GraphEdge[] = [];
  texts.forEach((content, position) => {
    const messageId = `${id}:m${position}`;
    nodes.push({
      label: 'Message',
      id: messageId,
      properties: {
        role: 'user',
        content,
        created_at: `2024-01-01T10:0${position}:00Z`,
        conversation_id: id,
        position,
        on_shown_thread: true,
      },
    });
    edges.push({ kind: 'HAS_MESSAGE', from: id, to: messageId });
  });
  return { owner: id, nodes, edges };
}

// Four messages, then one appended (a segment of its own: the older holds more messages).
const CONVERSATIONS: [before: string[], appended: string][] = [
  [['kiwi one', 'kiwi two', 'kiwi three', 'kiwi four'], 'kiwi five'],
  [['plum one', 'plum two', 'plum three', 'plum four'], 'kiwi late'],
  [['kiwi alone', 'plum', 'plum', 'plum'], 'plum again'],
];

describe('the conversations counted from their words', () => {
  it('count a conversation once when several of its segments match', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert(CONVERSATIONS.map(([before], c) => batch(c, before)));
    for (const [c, [before, appended]] of CONVERSATIONS.entries())
      expect(await store.patch(batch(c, before), batch(c, [...before, appended]), false)).toBe(
        'written',
      );
    await store.close();
    const db = new Database(file, { readonly: true });
    try {
      // Each conversation has two segments: the appends were not merged.
      const segments = db
        .prepare(`SELECT count(*) FROM ${CONVERSATION_SEGMENTS} GROUP BY n`)
        .pluck()
        .all();
      expect(segments).toEqual([2, 2, 2]);
    } finally {
      db.close();
    }
    const reader = SqliteStore.open(file, { readonly: true });
    try {
      for (const text of ['kiwi', 'ki*', 'kiw*', 'kiwi OR mango', 'kiwi -mango', 'ki* -mango'])
        expect({ text, count: (await reader.search({ text })).conversationCount }).toEqual({
          text,
          count: 3,
        });
      expect((await reader.search({ text: 'plum' })).conversationCount).toBe(2);
    } finally {
      await reader.close();
    }
  });
});
