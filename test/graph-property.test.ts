import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { project } from '../src/graph/project.js';
import { shownThread } from '../src/model/build-conversation.js';
import type { Conversation } from '../src/model/pam.js';
import { chatgpt } from '../src/providers/chatgpt/index.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { isOffThread } from '../src/graph/project.js';
import { tempDir } from './support/convert-to-temp.js';
import { InlineTexts } from '../src/bundle/inline-text.js';

/** A random ChatGPT mapping tree: each node's parent is an earlier node. */
const conversationArbitrary = fc
  .record({
    parents: fc.array(fc.nat(), { minLength: 1, maxLength: 25 }),
    texts: fc.array(fc.string({ maxLength: 30 }), { minLength: 25, maxLength: 25 }),
    leaf: fc.nat(),
    title: fc.option(fc.string({ maxLength: 20 })),
    hidden: fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
  })
  .map(({ parents, texts, leaf, title, hidden }): Conversation | undefined => {
    const mapping: Record<string, unknown> = {};
    parents.forEach((p, i) => {
      const parent = i === 0 ? null : `n${p % i}`;
      mapping[`n${i}`] = {
        id: `n${i}`,
        parent,
        children: [],
        message: {
          id: `n${i}`,
          author: { role: i % 2 === 0 ? 'user' : 'assistant' },
          create_time: 1_700_000_000 + i,
          content: { content_type: 'text', parts: [texts[i] ?? ''] },
          metadata: hidden[i] ? { is_visually_hidden_from_conversation: true } : {},
          recipient: 'all',
        },
      };
    });
    return chatgpt.toConversation(
      { id: 'prop', title, mapping, current_node: `n${leaf % parents.length}` },
      'test',
      {
        record: '#0',
        file: 'test.json',
        fallbackTime: undefined,
        report: () => undefined,
        resolveAsset: () => undefined,
        attachText: new InlineTexts().attach,
      },
    ) as Conversation | undefined;
  });

const options = { source: 'chatgpt', label: 'ChatGPT', deep: true };

describe('project', () => {
  it('is deterministic, and every edge end is a node of the batch', () => {
    fc.assert(
      fc.property(conversationArbitrary, (conversation) => {
        if (!conversation) return;
        const batch = project(conversation, options);
        expect(project(structuredClone(conversation), options)).toEqual(batch);
        const ids = new Set(batch.nodes.map((n) => n.id));
        expect(ids.size).toBe(batch.nodes.length);
        for (const edge of batch.edges) expect(ids.has(edge.from) && ids.has(edge.to)).toBe(true);
        const next = batch.edges.filter((e) => e.kind === 'NEXT');
        const onThread = shownThread(conversation).filter((m) => !isOffThread(m));
        expect(next.length).toBe(Math.max(0, onThread.length - 1));
      }),
      { numRuns: 200 },
    );
  });

  it('round-trips: upsert twice equals once, and the store gives back the shown thread', async () => {
    const store = SqliteStore.open(join(tempDir(), 'p.sqlite'));
    try {
      await fc.assert(
        fc.asyncProperty(conversationArbitrary, async (conversation) => {
          if (!conversation) return;
          await store.clear();
          const batch = project(conversation, options);
          await store.upsert([batch]);
          const once = await store.counts();
          await store.upsert([batch]);
          expect(await store.counts()).toEqual(once);
          expect(once.nodes.Message).toBe(conversation.messages.length);
          const thread = await store.thread(conversation.id);
          expect(thread.map((m) => m.id)).toEqual(
            shownThread(conversation)
              .filter((m) => !isOffThread(m))
              .map((m) => `${conversation.id}:${m.id}`),
          );
        }),
        { numRuns: 60 },
      );
    } finally {
      await store.close();
    }
  });
});
