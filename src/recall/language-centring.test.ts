import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { convertToTemp, tempDir } from '../../test/support/convert-to-temp.js';
import { batchesOf } from '../../test/support/graph-fixtures.js';
import { chunkText } from '../embed/chunk-text.js';
import { preloadLanguageDetector } from '../search/language-detection.js';
import { SqliteStore } from '../stores/sqlite/sqlite-store.js';
import type { Store } from '../stores/store.js';
import { embedConversations, type TextEmbedder } from './embed-conversations.js';
import {
  centringBy,
  decodeCentres,
  encodeCentres,
  measureCentres,
  type LanguageCentres,
} from './language-centring.js';
import { recall } from './recall-search.js';

// Two English and two French conversations, two topics (cats, bread): enough prose for eld.
const CONVERSATIONS: readonly [string, string, string[]][] = [
  [
    'en-cat',
    'Cat being sick',
    [
      'My cat keeps being sick after eating its dry food every single morning, what should I do?',
      'Feed smaller portions, slow the eating with a puzzle bowl, and see a vet if it goes on.',
    ],
  ],
  [
    'en-bread',
    'Bread that stays flat',
    [
      'My homemade bread stays flat and dense in the oven, why does the dough not rise?',
      'The yeast may be old, or the dough was not kneaded long enough; try a warmer place.',
    ],
  ],
  [
    'fr-cat',
    'Mon chat est malade',
    [
      'Mon chat est malade après chaque repas depuis une semaine, que dois-je faire pour lui ?',
      'Donnez-lui de plus petites portions, et consultez le vétérinaire si cela continue.',
    ],
  ],
  [
    'fr-bread',
    'Le pain reste plat',
    [
      'Mon pain maison reste plat et dense dans le four, pourquoi la pâte ne lève-t-elle pas ?',
      'La levure est peut-être trop vieille, ou la pâte manque de pétrissage ; il faut la chaleur.',
    ],
  ],
];

/**
 * A model in which each text's language weighs more than its topic, as multilingual-e5-small's
 * vectors do: a language axis (English, French) and a topic axis (cats, bread) per text.
 */
const languageHeavy: TextEmbedder = {
  model: { id: 'test-language-heavy', dimensions: 4 },
  embed(texts) {
    return Promise.resolve(
      texts.map((text) => {
        const lower = text.toLowerCase();
        const french = /\b(mon|est|le|la|chat|pain|des|que)\b/.test(lower);
        const cat = /\b(cat|chat|vet|vétérinaire|chaton|vomit)\b/.test(lower);
        const v = Float32Array.from([french ? 0 : 3, french ? 3 : 0, cat ? 1 : 0, cat ? 0 : 1]);
        const norm = Math.hypot(...v);
        return v.map((x) => x / norm);
      }),
    );
  },
};

function claudeExport(file: string): void {
  writeFileSync(
    file,
    JSON.stringify(
      CONVERSATIONS.map(([uuid, name, [question, answer]], i) => ({
        uuid,
        name,
        created_at: `2025-01-0${String(i + 1)}T10:00:00Z`,
        updated_at: `2025-01-0${String(i + 1)}T10:05:00Z`,
        chat_messages: [
          {
            uuid: `${uuid}-q`,
            sender: 'human',
            created_at: `2025-01-0${String(i + 1)}T10:00:00Z`,
            content: [{ type: 'text', text: question }],
          },
          {
            uuid: `${uuid}-a`,
            sender: 'assistant',
            created_at: `2025-01-0${String(i + 1)}T10:01:00Z`,
            content: [{ type: 'text', text: answer }],
          },
        ],
      })),
    ),
  );
}

const whole = (text: string) => chunkText(text, { maxTokens: 200, overlapTokens: 0 }, () => 1);

describe('centring by language', () => {
  let store: Store;

  beforeEach(async () => {
    const dir = tempDir();
    claudeExport(join(dir, 'claude.json'));
    const { conversations } = await convertToTemp([join(dir, 'claude.json')]);
    store = SqliteStore.open(join(dir, 'chatgraph.sqlite'));
    await store.upsert(batchesOf(conversations));
    await embedConversations(store.vectors, { embedder: languageHeavy, chunk: whole });
    await preloadLanguageDetector();
  });
  afterEach(async () => {
    await store.close();
  });

  const platformOf = async (owner: string): Promise<string | undefined> =>
    (
      await store.vectors.describe([
        { nodeId: owner, kind: 'title', messageId: null, owner, similarity: 0, start: 0, end: 0 },
      ])
    )[0]?.platformConversationId;

  it("measures each conversation's language and each language's mean from the stored vectors", async () => {
    const centres = await measureCentres(store.vectors, languageHeavy.model.id);
    const languages = new Map<string, string>();
    for (const [owner, language] of centres.conversations)
      languages.set((await platformOf(owner)) ?? owner, language);
    expect(Object.fromEntries(languages)).toEqual({
      'en-cat': 'en',
      'en-bread': 'en',
      'fr-cat': 'fr',
      'fr-bread': 'fr',
    });
    expect(centres.languages.get('en')?.count).toBe(2);
    // The French mean leans to the French axis, the English to the English one.
    const fr = centres.languages.get('fr')?.mean;
    expect(fr?.[1]).toBeGreaterThan(fr?.[0] ?? 1);
  });

  it('keeps them through embedding.json, and reads only conversations it has not told yet', async () => {
    const centres = await measureCentres(store.vectors, languageHeavy.model.id);
    const stored = JSON.parse(JSON.stringify(encodeCentres(centres))) as ReturnType<
      typeof encodeCentres
    >;
    const back = decodeCentres(stored, languageHeavy.model.id, 4);
    expect(back?.conversations).toEqual(centres.conversations);
    expect(Array.from(back?.languages.get('fr')?.mean ?? [])).toEqual(
      Array.from(centres.languages.get('fr')?.mean ?? []),
    );
    // Another model's means are not used.
    expect(decodeCentres(stored, 'another-model', 4)).toBeUndefined();
    // A language already told is kept: only conversations missing from the map are read.
    const read: string[] = [];
    const counting = {
      conversationVectors: (limit: number) => store.vectors.conversationVectors(limit),
      texts: (owner: string) => {
        read.push(owner);
        return store.vectors.texts(owner);
      },
    };
    const [first] = centres.conversations.keys();
    const known: LanguageCentres = {
      ...centres,
      conversations: new Map([...centres.conversations].filter(([owner]) => owner !== first)),
    };
    const again = await measureCentres(counting, languageHeavy.model.id, known);
    expect(read).toEqual([first]);
    expect(again.conversations).toEqual(centres.conversations);
  });

  it("ranks a question's conversation in another language first, where the plain cosine ranks its own language first", async () => {
    const text = 'mon chat vomit';
    const [vector] = await languageHeavy.embed([text]);
    if (!vector) throw new Error('no vector');
    const embedQuery = () => Promise.resolve(vector);
    const query = { text, mode: 'semantic' as const, limit: 20 };
    const plain = await recall(store, query, embedQuery);
    // Plain cosine: the French conversation about bread outranks the English one about cats.
    const plainOrder = [...new Set(plain.hits.map((h) => h.platformConversationId))];
    expect(plainOrder.indexOf('fr-bread')).toBeLessThan(plainOrder.indexOf('en-cat'));
    // An old folder: no means kept, measured from its stored vectors (the upgrade path).
    const centring = centringBy(await measureCentres(store.vectors, languageHeavy.model.id), 0);
    const centred = await recall(store, query, embedQuery, undefined, (t, v) =>
      Promise.resolve({
        centred: centring.query(t, v),
        test: { noise: -Infinity, margin: 0, keep: 0, relatedZ: 0 },
        plainMargin: 0,
        pairWeight: 1,
      }),
    );
    const order = [...new Set(centred.hits.map((h) => h.platformConversationId))];
    expect(order.slice(0, 2).sort()).toEqual(['en-cat', 'fr-cat']);
    expect(order.indexOf('en-cat')).toBeLessThan(order.indexOf('fr-bread'));
  });

  it("gives each passage's language pair with the query's the dot product of their centres", async () => {
    const centres = await measureCentres(store.vectors, languageHeavy.model.id);
    const centring = centringBy(centres, 0);
    const [vector] = await languageHeavy.embed(['mon chat vomit']);
    if (!vector) throw new Error('no vector');
    const query = centring.query('mon chat vomit', vector);
    const ownerOf = (language: string) =>
      [...centres.conversations].find(([, l]) => l === language)?.[0] ?? '';
    const fr = centres.languages.get('fr')?.mean ?? new Float32Array(4);
    const en = centres.languages.get('en')?.mean ?? new Float32Array(4);
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0);
    expect(query.language).toBe('fr');
    expect(query.languagePair(ownerOf('fr'))).toBeCloseTo(dot(fr, fr), 6);
    expect(query.languagePair(ownerOf('en'))).toBeCloseTo(dot(en, fr), 6);
    // Sharing the query's language is worth more than sharing another's.
    expect(query.languagePair(ownerOf('fr'))).toBeGreaterThan(query.languagePair(ownerOf('en')));
  });
});
