import type { GraphBatch, GraphEdge, GraphNode } from '../../src/graph/graph-batch.js';

interface Said {
  id: string;
  role: string;
  at: string;
  text: string;
  attachment?: { id: string; name: string; content: string };
}

// One conversation as the projection would write it: the nodes and edges search reads.
function conversation(id: string, title: string, source: string, messages: Said[]): GraphBatch {
  const nodes: GraphNode[] = [
    {
      label: 'Conversation',
      id,
      properties: {
        name: title,
        title,
        conversation_id: `platform-${id}`,
        source,
        created_at: messages[0]?.at ?? null,
        message_count: messages.length,
      },
    },
  ];
  const edges: GraphEdge[] = [];
  messages.forEach((m, position) => {
    const messageId = `${id}:${m.id}`;
    nodes.push({
      label: 'Message',
      id: messageId,
      properties: {
        role: m.role,
        content: m.text,
        created_at: m.at,
        conversation_id: `platform-${id}`,
        position,
        on_shown_thread: true,
      },
    });
    edges.push({ kind: 'HAS_MESSAGE', from: id, to: messageId });
    if (m.attachment) {
      nodes.push({
        label: 'Attachment',
        id: m.attachment.id,
        properties: {
          name: m.attachment.name,
          content: m.attachment.content,
          message_id: messageId,
          conversation_id: `platform-${id}`,
          position: 0,
        },
      });
      edges.push({ kind: 'HAS_ATTACHMENT', from: messageId, to: m.attachment.id });
    }
  });
  return { owner: id, nodes, edges };
}

/**
 * Conversations for keyword search: words found alone or together (focaccia, levain, marathon),
 * a stemmed form (decorators), text only in an attachment (pumpernickel), and 25 messages with
 * one word (zeppelin) for paging. No word here is in the contract's other fixtures.
 */
export function searchBatches(): GraphBatch[] {
  return [
    conversation('kw-bread', 'Bread notes', 'chatgpt', [
      {
        id: 'm1',
        role: 'user',
        at: '2024-01-10T08:00:00Z',
        text: 'My focaccia starter smells of acetone',
      },
      {
        id: 'm2',
        role: 'assistant',
        at: '2024-01-10T08:01:00Z',
        text: 'Feed the levain twice a day; a focaccia levain likes warmth',
      },
      {
        id: 'm3',
        role: 'user',
        at: '2024-02-01T09:00:00Z',
        text: 'I love Python decorators',
        attachment: {
          id: 'kw-att-1',
          name: 'recipe.txt',
          content: 'Pumpernickel needs whole rye grain and a long, slow bake',
        },
      },
    ]),
    conversation('kw-run', 'Running plan', 'claude-ai', [
      {
        id: 'm4',
        role: 'user',
        at: '2024-03-01T07:00:00Z',
        text: 'Training for a marathon in spring',
      },
      {
        id: 'm5',
        role: 'assistant',
        at: '2024-03-01T07:01:00Z',
        text: 'Taper the week before the marathon race',
      },
    ]),
    conversation(
      'kw-many',
      'Airships',
      'chatgpt',
      Array.from({ length: 25 }, (_, i) => ({
        id: `z${i}`,
        role: 'user',
        at: `2024-04-01T10:${String(i).padStart(2, '0')}:00Z`,
        text: `zeppelin note ${i}${' zeppelin'.repeat(i % 4)}`,
      })),
    ),
  ];
}

/**
 * One conversation whose message is a word found nowhere else (quokka) and then one unbroken
 * token of `bytes` characters (a pasted blob): its snippet must stay short.
 */
export function longTokenBatch(bytes = 5 * 1024 * 1024): GraphBatch {
  return conversation('kw-blob', 'A pasted blob', 'chatgpt', [
    { id: 'm1', role: 'user', at: '2024-03-01T08:00:00Z', text: `quokka ${'q'.repeat(bytes)}` },
  ]);
}
