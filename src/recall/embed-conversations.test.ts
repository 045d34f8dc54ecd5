import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bagOfWords } from '../../test/contract/vector-contract.js';
import { convertToTemp, tempDir } from '../../test/support/convert-to-temp.js';
import { batchesOf, knownConversations } from '../../test/support/graph-fixtures.js';
import { embeddingCheck } from '../doctor/store-checks.js';
import { chunkText } from '../embed/chunk-text.js';
import { SqliteStore } from '../stores/sqlite/sqlite-store.js';
import type { Store } from '../stores/store.js';
import { GIST_HASH_PREFIX } from './conversation-gist.js';
import { embedConversations, type EmbedPlan, type EmbeddingCache } from './embed-conversations.js';
import { recall } from './recall-search.js';

/** One token a word, as the chunk tests count: small chunks, so texts are cut in several. */
const words = (text: string): number => text.split(/\s+/).filter(Boolean).length + 2;

function counting(): { chunk: (text: string) => ReturnType<typeof chunkText>; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    chunk: (text) => {
      calls.push(text);
      return chunkText(text, { maxTokens: 6, overlapTokens: 1 }, words);
    },
  };
}

const embedQuery = async (text: string): Promise<Float32Array> => {
  const [vector] = await bagOfWords.embed([text]);
  if (!vector) throw new Error('no vector');
  return vector;
};

describe('embedConversations', () => {
  let store: Store;

  beforeEach(async () => {
    store = SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'));
    await store.upsert(batchesOf(await knownConversations()));
  });
  afterEach(async () => {
    await store.close();
  });

  it('plans exactly the chunks it embeds, cutting each text once', async () => {
    const { chunk, calls } = counting();
    const plans: EmbedPlan[] = [];
    const before = bagOfWords.calls;
    const owners = (await store.vectors.pending()).map((p) => p.owner);
    const report = await embedConversations(store.vectors, {
      embedder: bagOfWords,
      chunk,
      onPlan: (plan) => plans.push(plan),
    });
    expect(plans.map((p) => p.pass)).toEqual(['conversations', 'chunks']);
    const [gists, chunks] = plans;
    expect(gists?.chunks).toBe(3);
    // The second pass finds the first pass's gists among the vectors made, and embeds a text
    // the conversations hold more than once (branches share their start) once.
    expect(chunks?.cached).toBeGreaterThan(3);
    const planned = plans.reduce((sum, p) => sum + p.chunks - p.cached, 0);
    expect(report.embedded).toBe(planned);
    expect(bagOfWords.calls - before).toBe(planned);
    expect((await store.vectors.model())?.count).toBe(chunks?.chunks);
    expect(chunks?.chunks).toBeGreaterThan(chunks?.texts ?? Infinity);
    expect(chunks?.tokens).toBeGreaterThan(0);
    expect(chunks?.seconds).toBeGreaterThan(0);
    // Every text is cut once (by the plan); only the three short gists are cut again, in
    // each pass's plan and when their conversation is written.
    expect(await store.vectors.pending()).toEqual([]);
    let texts = 0;
    for (const owner of owners)
      texts += (await store.vectors.texts(owner)).filter((t) => t.kind !== 'title').length;
    expect(calls.length).toBe(texts + 3 * 3);
  });

  it('plans the model’s time over its workers, and reports them and the passes’ seconds', async () => {
    const cost = { perToken: 1, perChunk: 0, perConversation: 0 };
    const plans: EmbedPlan[] = [];
    const report = await embedConversations(store.vectors, {
      embedder: { model: bagOfWords.model, workers: 2, embed: (texts) => bagOfWords.embed(texts) },
      chunk: counting().chunk,
      cost,
      onPlan: (plan) => plans.push(plan),
    });
    for (const plan of plans) {
      expect(plan.workers).toBe(2);
      // Two sessions share the tokens: half one core's time.
      expect(plan.seconds).toBeCloseTo(plan.tokens / 2, 6);
    }
    expect(report.workers).toBe(2);
    expect(report.seconds).toBeGreaterThan(0);
  });

  it('gives every conversation one vector first, newest first, found by meaning', async () => {
    const controller = new AbortController();
    const first = await embedConversations(store.vectors, {
      embedder: bagOfWords,
      chunk: counting().chunk,
      batchSize: 1,
      signal: controller.signal,
      onProgress: () => {
        controller.abort();
      },
    });
    expect(first.interrupted).toBe(true);
    expect(first.gists).toBe(1);
    const pending = await store.vectors.pending();
    const gisted = pending.filter((p) => p.embedded?.startsWith(GIST_HASH_PREFIX));
    // Pending is newest first: the newest conversation got its vector first.
    expect(gisted.map((p) => p.owner)).toEqual([pending[0]?.owner]);

    const stop = new AbortController();
    const second = await embedConversations(store.vectors, {
      embedder: bagOfWords,
      chunk: counting().chunk,
      signal: stop.signal,
      onPlan: (plan) => {
        if (plan.pass === 'chunks') stop.abort();
      },
    });
    expect(second.interrupted).toBe(true);
    expect(second.gists).toBe(2);
    expect((await store.vectors.model())?.count).toBe(3);
    expect((await store.vectors.pending()).length).toBe(3);
    // One vector a conversation, and semantic search finds each by what it is about.
    const found = await recall(
      store,
      { text: 'sourdough', mode: 'semantic', limit: 10 },
      embedQuery,
    );
    expect(found.hits.length).toBeGreaterThan(0);
    expect(found.hits.every((h) => h.kind === 'title')).toBe(true);
    const owners = new Set(
      (await store.vectors.search({ vector: await embedQuery('bread'), limit: 10 })).map(
        (h) => h.owner,
      ),
    );
    expect(owners.size).toBe(3);

    const last = await embedConversations(store.vectors, {
      embedder: bagOfWords,
      chunk: counting().chunk,
    });
    expect(last.interrupted).toBe(false);
    expect(last.gists).toBe(0);
    expect(last.conversationsDone).toBe(3);
    expect(await store.vectors.pending()).toEqual([]);
  });

  it('plans exactly the chunks it embeds with a cache, and nothing the cache holds', async () => {
    const stored = new Map<string, Float32Array>();
    const cache: EmbeddingCache = {
      get: (model, hashes) =>
        new Map(
          hashes.flatMap((h) => {
            const v = stored.get(`${model}/${h}`);
            return v ? [[h, v] as const] : [];
          }),
        ),
      put: (model, entries) => {
        for (const e of entries) stored.set(`${model}/${e.textHash}`, e.vector);
      },
    };
    const run = async (target: Store): Promise<[number, number]> => {
      const plans: EmbedPlan[] = [];
      const report = await embedConversations(target.vectors, {
        embedder: bagOfWords,
        chunk: counting().chunk,
        cache,
        onPlan: (plan) => plans.push(plan),
      });
      return [plans.reduce((sum, p) => sum + p.chunks - p.cached, 0), report.embedded];
    };
    const [planned, embedded] = await run(store);
    expect(embedded).toBe(planned);
    expect(embedded).toBeGreaterThan(0);
    const other = SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'));
    await other.upsert(batchesOf(await knownConversations()));
    expect(await run(other).finally(() => other.close())).toEqual([0, 0]);
  });

  it('embeds no text of white space alone, counts none, and has nothing to do the second time', async () => {
    const blank = ['\n\n', '\t', ' \u00a0\u3000\u2028 ', '\r\n\u0085\ufeff'];
    const file = join(tempDir(), 'claude.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          uuid: 'blank-1',
          name: 'Mostly blank',
          created_at: '2025-02-01T10:00:00Z',
          updated_at: '2025-02-01T10:05:00Z',
          chat_messages: [
            ...blank.map((text, i) => ({
              uuid: `b${String(i)}`,
              sender: i % 2 === 0 ? 'human' : 'assistant',
              created_at: `2025-02-01T10:0${String(i)}:00Z`,
              content: [{ type: 'text', text }],
            })),
            {
              uuid: 'b9',
              sender: 'human',
              created_at: '2025-02-01T10:09:00Z',
              content: [{ type: 'text', text: 'the kettle whistles at dawn' }],
            },
          ],
        },
      ]),
    );
    const path = join(tempDir(), 'chatgraph.sqlite');
    const target = SqliteStore.open(path);
    const raw = new Database(path, { readonly: true });
    try {
      await target.upsert(batchesOf((await convertToTemp([file])).conversations));
      const stored = raw.prepare(`SELECT id, content FROM "Message" ORDER BY position`).all() as {
        id: string;
        content: string;
      }[];
      // The store keeps the blank messages (they are the export's); only their vectors go.
      const blanks = stored.filter((m) => blank.includes(m.content)).map((m) => m.id);
      expect(blanks).toHaveLength(blank.length);
      const [owner] = (await target.vectors.pending()).map((p) => p.owner);
      const texts = await target.vectors.texts(owner ?? '');
      expect(texts.filter((t) => t.kind === 'message').map((t) => t.text)).toEqual([
        'the kettle whistles at dawn',
      ]);
      const plans: EmbedPlan[] = [];
      const embed = () =>
        embedConversations(target.vectors, {
          embedder: bagOfWords,
          chunk: counting().chunk,
          onPlan: (plan) => plans.push(plan),
        });
      await embed();
      // The plan's texts are the title and the one message: the count a user is shown.
      expect(plans.find((p) => p.pass === 'chunks')?.texts).toBe(2);
      const vectors = raw.prepare(`SELECT node_id FROM vector_unit`).pluck().all() as string[];
      expect(vectors.filter((id) => blanks.includes(id))).toEqual([]);
      expect(embeddingCheck(raw, { flags: '' }).detail).toBe('1 of 1 message embedded');
      // Nothing is left to plan: a second run embeds nothing.
      expect(await target.vectors.pending()).toEqual([]);
      plans.length = 0;
      expect((await embed()).embedded).toBe(0);
      expect(plans.reduce((sum, p) => sum + p.chunks - p.cached, 0)).toBe(0);
    } finally {
      raw.close();
      await target.close();
    }
  });
});
