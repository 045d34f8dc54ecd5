import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GraphBatch, GraphEdge, GraphNode } from '../../src/graph/graph-batch.js';
import {
  AmbiguousIdError,
  UnknownIdError,
  resolveConversation,
  resolveMessage,
  resolveThreadTarget,
} from '../../src/stores/resolve-id.js';
import type { Store } from '../../src/stores/store.js';

// Ids chosen to share starts: ours with ours, ours with a platform's, messages with messages.
const ONE = '3f2a9c1b-1111-4000-8000-000000000001';
const TWO = '3f2a9c1b-2222-4000-8000-000000000002';
const THREE = '77770000-3333-4000-8000-000000000003';

function conversation(id: string, platformId: string, title: string, parts: string[]): GraphBatch {
  const nodes: GraphNode[] = [
    {
      label: 'Conversation',
      id,
      properties: {
        name: title,
        title,
        conversation_id: platformId,
        source: 'chatgpt',
        created_at: '2024-03-01T10:00:00Z',
        message_count: parts.length,
      },
    },
  ];
  const edges: GraphEdge[] = [];
  parts.forEach((part, position) => {
    const messageId = `${id}:${part}`;
    nodes.push({
      label: 'Message',
      id: messageId,
      properties: {
        role: position % 2 === 0 ? 'user' : 'assistant',
        content: `message ${part}`,
        created_at: '2024-03-01T10:00:00Z',
        conversation_id: platformId,
        position,
        on_shown_thread: true,
      },
    });
    edges.push({ kind: 'HAS_MESSAGE', from: id, to: messageId });
  });
  return { owner: id, nodes, edges };
}

export function idBatches(): GraphBatch[] {
  return [
    conversation(ONE, 'p-abc12345-one', 'Solar panels', [
      '5e5e5e5e-aaaa-4000-8000-000000000001',
      '5e5e5e5e-bbbb-4000-8000-000000000002',
      '0123abcd-cccc-4000-8000-000000000003',
    ]),
    conversation(TWO, 'p-def99999', 'Sourdough', ['9a9a9a9a-dddd-4000-8000-000000000004']),
    // Its platform id starts as the other two's ids do.
    conversation(THREE, '3f2a9c1b-platform', 'Heat pumps', ['44444444-eeee-4000-8000-00000000005']),
  ];
}

/** What every store answers for ids typed whole or short (`thread 3f2a9c1b`). */
export function idContract(name: string, open: () => Promise<Store>): void {
  describe(`ids people type: ${name}`, () => {
    let store: Store;
    beforeEach(async () => {
      store = await open();
      await store.upsert(idBatches());
    });
    afterEach(async () => {
      await store.close();
    });

    it('finds conversations by the start of their id or the platform’s, by id, limited', async () => {
      const ids = async (prefix: string, limit = 10): Promise<string[]> =>
        (await store.conversationsByPrefix(prefix, limit)).map((c) => c.id);
      expect(await ids('3f2a9c1b-1')).toEqual([ONE]);
      expect(await ids('3f2a9c1b')).toEqual([ONE, TWO, THREE]);
      expect(await ids('3f2a9c1b', 2)).toEqual([ONE, TWO]);
      expect(await ids('p-def999')).toEqual([TWO]);
      expect(await ids(ONE)).toEqual([ONE]);
      // Nothing in a prefix is a wildcard.
      expect(await ids('3f2a9c1b_')).toEqual([]);
      expect(await ids('3f2a9c1%')).toEqual([]);
      expect(await ids('zzzzzzzz')).toEqual([]);
      const [info] = await store.conversationsByPrefix('p-abc123', 1);
      expect(info).toMatchObject({ id: ONE, platformId: 'p-abc12345-one', title: 'Solar panels' });
    });

    it('finds messages by the start of their id or of their own part', async () => {
      expect(await store.messagesByPrefix('5e5e5e5e', 10)).toEqual([
        { id: `${ONE}:5e5e5e5e-aaaa-4000-8000-000000000001`, conversationId: ONE },
        { id: `${ONE}:5e5e5e5e-bbbb-4000-8000-000000000002`, conversationId: ONE },
      ]);
      expect(await store.messagesByPrefix('5e5e5e5e-b', 10)).toHaveLength(1);
      expect((await store.messagesByPrefix(`${ONE}:0123`, 10)).map((m) => m.id)).toEqual([
        `${ONE}:0123abcd-cccc-4000-8000-000000000003`,
      ]);
      expect(await store.messagesByPrefix(TWO, 10)).toEqual([
        { id: `${TWO}:9a9a9a9a-dddd-4000-8000-000000000004`, conversationId: TWO },
      ]);
      expect(await store.messagesByPrefix('5e5e5e5e', 1)).toHaveLength(1);
      expect(await store.messagesByPrefix('5e5e5e5_', 10)).toEqual([]);
    });

    it('resolves a conversation id typed whole, as the platform’s, or by a unique start', async () => {
      expect((await resolveConversation(store, ONE)).id).toBe(ONE);
      expect((await resolveConversation(store, 'p-def99999')).id).toBe(TWO);
      expect((await resolveConversation(store, ' 3f2a9c1b-2 ')).id).toBe(TWO);
      expect((await resolveConversation(store, '77770000')).id).toBe(THREE);
      expect((await resolveConversation(store, 'p-abc123')).id).toBe(ONE);
    });

    it('refuses a start shared by several, too short, or unknown, in one line', async () => {
      const refusal = resolveConversation(store, '3f2a9c1b');
      await expect(refusal).rejects.toBeInstanceOf(AmbiguousIdError);
      await expect(refusal).rejects.toThrow(
        /^"3f2a9c1b" starts the ids of 3 conversations: 3f2a9c1b-1 "Solar panels", 3f2a9c1b-2 "Sourdough", 7777\w* "Heat pumps"; give more characters$/,
      );
      await expect(resolveConversation(store, '3f2a')).rejects.toThrow(
        /^there is no conversation with id 3f2a \(the start of an id needs 8 characters at least\)$/,
      );
      await expect(resolveConversation(store, 'deadbeef-0')).rejects.toBeInstanceOf(UnknownIdError);
      await expect(resolveConversation(store, 'deadbeef-0')).rejects.toThrow(
        /^there is no conversation with id deadbeef-0 \(nor one starting with it\)$/,
      );
    });

    it('resolves message ids, and opens a thread at one', async () => {
      const whole = `${ONE}:0123abcd-cccc-4000-8000-000000000003`;
      expect((await resolveMessage(store, whole)).id).toBe(whole);
      expect((await resolveMessage(store, '0123abcd-cccc-4000-8000-000000000003')).id).toBe(whole);
      expect(await resolveMessage(store, '9a9a9a9a')).toEqual({
        id: `${TWO}:9a9a9a9a-dddd-4000-8000-000000000004`,
        conversationId: TWO,
      });
      await expect(resolveMessage(store, '5e5e5e5e')).rejects.toThrow(
        /^"5e5e5e5e" starts the ids of 2 messages: 5e5e5e5e-a "Solar panels", 5e5e5e5e-b "Solar panels"; give more characters$/,
      );
      await expect(resolveMessage(store, '5e5e')).rejects.toBeInstanceOf(UnknownIdError);
      const target = await resolveThreadTarget(store, '0123abcd');
      expect(target.conversation.id).toBe(ONE);
      expect(target.messageId).toBe(whole);
      expect((await resolveThreadTarget(store, '77770000')).messageId).toBeUndefined();
      await expect(resolveThreadTarget(store, 'deadbeef')).rejects.toThrow(
        /^there is no conversation or message with id deadbeef \(nor one starting with it\)$/,
      );
    });
  });
}
