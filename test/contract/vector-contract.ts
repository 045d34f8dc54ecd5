import { makeNoise, meaningTest } from '../../src/recall/meaning-noise.js';
import { leastSimilarity } from '../../src/search/meaning-cutoff.js';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/model/pam.js';
import { embedConversations, type TextEmbedder } from '../../src/recall/embed-conversations.js';
import { recall } from '../../src/recall/recall-search.js';
import { recallConversations } from '../../src/recall/recall-conversations.js';
import type { Store } from '../../src/stores/store.js';
import { batchesOf, knownConversations } from '../support/graph-fixtures.js';

/**
 * Vectors for the contract: a hashed bag of words (texts sharing words are near), so what the
 * store does with vectors is checked without a model. The real model is tested end to end
 * elsewhere.
 */
export const bagOfWords: TextEmbedder & { calls: number } = {
  model: { id: 'test-bag-of-words', dimensions: 64 },
  calls: 0,
  embed(texts) {
    this.calls += texts.length;
    return Promise.resolve(texts.map((text) => bagVector(text, 64)));
  },
};

function bagVector(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const digest = createHash('sha256').update(word).digest();
    for (let k = 0; k < 4; k++) {
      const slot = (digest[k] ?? 0) % dimensions;
      vector[slot] = (vector[slot] ?? 0) + ((digest[k + 4] ?? 0) & 1 ? 1 : -1);
    }
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((v) => v / norm);
}

const whole = (text: string) => [{ text, start: 0, end: text.length }];

/** Semantic and hybrid search: the part of the store contract that needs vectors. */
export function vectorContract(name: string, open: () => Promise<Store>): void {
  describe(`Vector contract: ${name}`, () => {
    let store: Store;
    let conversations: Conversation[];

    beforeEach(async () => {
      store = await open();
      conversations = await knownConversations();
      await store.upsert(batchesOf(conversations));
    });
    afterEach(async () => {
      await store.close();
    });

    it('embeds every conversation once, and again only what changed', async () => {
      const first = await embedConversations(store.vectors, { embedder: bagOfWords, chunk: whole });
      expect(first.conversationsDone).toBe(3);
      expect(first.embedded).toBeGreaterThan(0);
      expect(await store.vectors.pending()).toEqual([]);
      const again = await embedConversations(store.vectors, { embedder: bagOfWords, chunk: whole });
      expect(again.conversationsDone).toBe(0);
      expect((await store.vectors.model())?.count).toBeGreaterThan(0);
    });

    it('finds the nearest message by its vector, with filters, and describes the hit', async () => {
      await embedConversations(store.vectors, { embedder: bagOfWords, chunk: whole });
      const [vector] = await bagOfWords.embed(['how long should sourdough proof']);
      if (!vector) throw new Error('no vector');
      const hits = await store.vectors.search({ vector, limit: 3 });
      expect(hits[0]?.kind).toBe('message');
      const [hit] = await store.vectors.describe(hits.slice(0, 1));
      expect(hit?.title).toBe('Claude on bread');
      expect(hit?.role).toBe('user');
      expect(hit?.snippet).toContain('sourdough');
      const filtered = await store.vectors.search({ vector, limit: 10, source: 'chatgpt' });
      const owners = new Set(filtered.map((h) => h.owner));
      const claudeOwner = hits[0]?.owner;
      expect(owners.has(claudeOwner ?? '')).toBe(false);
      const byRole = await store.vectors.search({ vector, limit: 10, role: 'assistant' });
      const roles = await store.vectors.describe(byRole.filter((h) => h.kind === 'message'));
      expect(roles.every((h) => h.role === 'assistant')).toBe(true);
      const none = await store.vectors.search({ vector, limit: 10, until: '2000-01-01' });
      expect(none).toEqual([]);
    });

    it('drops a conversation’s vectors when the conversation changes, and a model change re-embeds', async () => {
      await embedConversations(store.vectors, { embedder: bagOfWords, chunk: whole });
      const before = (await store.vectors.model())?.count ?? 0;
      const changed = structuredClone(conversations[2]);
      if (!changed) throw new Error('no conversation');
      const message = changed.messages[0];
      if (message?.content) message.content.text = 'Something else entirely about marathons';
      await store.upsert(batchesOf([changed]));
      expect((await store.vectors.model())?.count).toBeLessThan(before);
      expect((await store.vectors.pending()).map((p) => p.owner)).toEqual([changed.id]);
      const [vector] = await bagOfWords.embed(['how long should sourdough proof']);
      if (!vector) throw new Error('no vector');
      const gone = await store.vectors.describe(await store.vectors.search({ vector, limit: 20 }));
      expect(gone.some((h) => h.snippet.includes('proof?'))).toBe(false);
      const other = { ...bagOfWords, model: { id: 'another-model', dimensions: 32 } };
      other.embed = (texts) => Promise.resolve(texts.map((t) => bagVector(t, 32)));
      const report = await embedConversations(store.vectors, { embedder: other, chunk: whole });
      expect(report.replacedModel).toBe('test-bag-of-words');
      expect(report.conversationsDone).toBe(3);
      expect((await store.vectors.model())?.id).toBe('another-model');
    });

    it('runs hybrid search: keyword and meaning fused, each hit saying why', async () => {
      await embedConversations(store.vectors, { embedder: bagOfWords, chunk: whole });
      const embedQuery = async (text: string): Promise<Float32Array> => {
        const [vector] = await bagOfWords.embed([text]);
        if (!vector) throw new Error('no vector');
        return vector;
      };
      const hybrid = await recall(store, { text: 'sourdough proof', limit: 5 }, embedQuery);
      expect(hybrid.mode).toBe('hybrid');
      const top = hybrid.hits[0];
      expect(top?.why?.keyword).toBeDefined();
      expect(top?.why?.semantic).toBeDefined();
      const semantic = await recall(
        store,
        { text: 'sourdough proof', mode: 'semantic' },
        embedQuery,
      );
      expect(semantic.mode).toBe('semantic');
      expect(semantic.hits.every((h) => h.why?.semantic && !h.why.keyword)).toBe(true);
      const keyword = await recall(store, { text: 'sourdough', mode: 'keyword' }, embedQuery);
      expect(keyword.hits.every((h) => h.why?.keyword && !h.why.semantic)).toBe(true);
      const page2 = await recall(
        store,
        { text: 'sourdough proof', limit: 1, offset: 1 },
        embedQuery,
      );
      expect(page2.hits[0]?.messageId).toBe(hybrid.hits[1]?.messageId);
    });

    it('answers in conversations in every mode, leaving out what is far in meaning', async () => {
      await embedConversations(store.vectors, { embedder: bagOfWords, chunk: whole });
      const embedQuery = async (text: string): Promise<Float32Array> => {
        const [vector] = await bagOfWords.embed([text]);
        if (!vector) throw new Error('no vector');
        return vector;
      };
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        const answer = await recallConversations(store, (q) => recall(store, q, embedQuery), {
          text: 'sourdough proof',
          mode,
          limit: 10,
        });
        expect(answer.mode).toBe(mode);
        const ids = answer.conversations.map((c) => c.conversationId);
        expect(ids.length).toBeGreaterThan(0);
        expect(new Set(ids).size).toBe(ids.length);
        for (const c of answer.conversations) {
          const thread = await store.thread(c.conversationId, { allBranches: true });
          expect(thread.map((m) => m.id)).toContain(c.best.messageId);
        }
        expect(answer.summary).not.toBe('');
      }
      // A model never calibrated keeps what beats its noise level and keeps half the best's lead
      // over it, and says how many it left out.
      const noise = await makeNoise((texts) => bagOfWords.embed(texts));
      const judge = (vector: Float32Array) =>
        Promise.resolve(meaningTest(vector, noise, 'bag-of-words'));
      const rows = await recall(
        store,
        { text: 'sourdough proof', mode: 'semantic', limit: 50 },
        embedQuery,
        judge,
      );
      const test = await judge(await embedQuery('sourdough proof'));
      expect(test.keep).toBe(0.5);
      const best = rows.hits[0]?.why?.semantic?.similarity ?? 0;
      const least = leastSimilarity(best, test);
      expect(rows.hits.length).toBeGreaterThan(0);
      expect(rows.hits.every((h) => (h.why?.semantic?.similarity ?? 0) >= least)).toBe(true);
      expect(rows.belowFloor).toBeGreaterThan(0);
    });

    it('says which conversations need vectors, and searches by words until there are some', async () => {
      expect((await store.vectors.pending()).length).toBe(3);
      const result = await recall(store, { text: 'sourdough' });
      expect(result.mode).toBe('keyword');
    });
  });
}
