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

/**
 * Conversations in five languages, each long enough for its language to be told, whose
 * messages hold one inflected form of a word (issue 24): panneaux, Wohnungen, canciones,
 * corações; NAS in capitals beside a conversation with "na" (which porter makes of "NAS").
 */
export function stemBatches(): GraphBatch[] {
  const said = (id: string, at: string, text: string): Said => ({ id, role: 'user', at, text });
  return [
    conversation('st-fr', 'Installation solaire', 'chatgpt', [
      said(
        'f1',
        '2024-05-01T08:00:00Z',
        "Nous voulons installer des panneaux solaires sur le toit de la maison cet été, avant l'automne.",
      ),
      said(
        'f2',
        '2024-05-01T08:01:00Z',
        'Il faut vérifier que la charpente du logement supporte le poids et demander une autorisation à la mairie.',
      ),
    ]),
    conversation('st-de', 'Umzug nach Berlin', 'chatgpt', [
      said(
        'd1',
        '2024-05-02T08:00:00Z',
        'Wir suchen seit Monaten bezahlbare Wohnungen in Berlin, aber die Mieten steigen jedes Jahr weiter.',
      ),
      said(
        'd2',
        '2024-05-02T08:01:00Z',
        'Vielleicht sollten wir auch in den Vororten schauen, dort ist es ruhiger und günstiger.',
      ),
    ]),
    conversation('st-es', 'Música para la boda', 'claude-ai', [
      said(
        'e1',
        '2024-05-03T08:00:00Z',
        'Necesito una lista de canciones románticas para el baile de la boda de mi hermana en junio.',
      ),
      said(
        'e2',
        '2024-05-03T08:01:00Z',
        'También queremos algo alegre para cuando los invitados empiecen a bailar después de la cena.',
      ),
    ]),
    conversation('st-pt', 'Saúde do coração', 'claude-ai', [
      said(
        'p1',
        '2024-05-04T08:00:00Z',
        'Os médicos dizem que os corações dos atletas ficam maiores com o treino regular e intenso.',
      ),
      said(
        'p2',
        '2024-05-04T08:01:00Z',
        'Quero saber se isso é perigoso ou se é uma adaptação normal do corpo ao exercício físico.',
      ),
    ]),
    conversation('st-nas', 'Home storage', 'chatgpt', [
      said(
        'n1',
        '2024-05-05T08:00:00Z',
        'My NAS keeps dropping off the network every night after the backup job finishes running.',
      ),
    ]),
    conversation('st-na', 'Chemistry', 'chatgpt', [
      said(
        'a1',
        '2024-05-06T08:00:00Z',
        'Sodium has the symbol na in lower case notes, which the teacher writes on the board every week.',
      ),
    ]),
  ];
}
