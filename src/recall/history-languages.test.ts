import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../test/support/shared.js';
import {
  describeShares,
  detectLanguage,
  historyLanguages,
  languagesOf,
  proseOf,
} from './history-languages.js';
import { chooseModel, keptModelNote, missingMultilingualMessage } from './model-choice.js';
import type { EmbeddingText } from '../stores/vector-index.js';

const messages = JSON.parse(
  readFileSync(join(ROOT, 'test', 'fixtures', 'languages', 'chat-messages.json'), 'utf8'),
) as Record<string, string[]>;

function texts(owner: string, lines: readonly string[]): EmbeddingText[] {
  return lines.map((text, i) => ({
    nodeId: `${owner}-${String(i)}`,
    kind: 'message',
    messageId: `${owner}-${String(i)}`,
    text,
    source: 'chatgpt',
    role: 'user',
    createdAt: null,
  }));
}

describe('the languages of a history', () => {
  it('tells the language of short chat messages in English, French, German, Portuguese, Spanish', async () => {
    for (const [language, lines] of Object.entries(messages))
      for (const line of lines) expect(await detectLanguage(line), line).toBe(language);
  });

  it('leaves out what has too little prose to tell: code, links, numbers, "ok"', async () => {
    expect(proseOf('see ```ts\nconst x = 1\n``` at https://example.com/a and `npm i` 42')).toBe(
      'see at and',
    );
    for (const text of ['ok', 'merci', '```py\nprint("hello world, how are you")\n```', '1234'])
      expect(await detectLanguage(text), text).toBeUndefined();
  });

  it('gives the share of each language, the largest first, and the share not in English', async () => {
    const all = Object.values(messages).flat();
    const found = await languagesOf([...all, 'ok', 'https://example.com']);
    expect(found.sampled).toBe(all.length + 2);
    expect(found.detected).toBe(all.length);
    expect(found.shares).toEqual({ en: 0.2, fr: 0.2, de: 0.2, pt: 0.2, es: 0.2 });
    expect(found.notEnglish).toBeCloseTo(0.8);
    const french = await languagesOf([...(messages.fr ?? []), ...(messages.en ?? []).slice(0, 4)]);
    expect(describeShares(french.shares)).toBe('fr 80%, en 20%');
  });

  it('samples messages spread over the conversations, not titles', async () => {
    const conversations = Array.from({ length: 400 }, (_, i) => `c${String(i)}`);
    const read: string[] = [];
    const vectors = {
      pending: () =>
        Promise.resolve(conversations.map((owner) => ({ owner, hash: owner, embedded: null }))),
      texts: (owner: string) => {
        read.push(owner);
        const french = Math.floor(Number(owner.slice(1)) / 20) % 2 === 0;
        const lines = (french ? messages.fr : messages.en) ?? [];
        return Promise.resolve([
          {
            ...texts(owner, ['A title in English that is long enough'])[0]!,
            kind: 'title' as const,
          },
          ...texts(owner, lines),
        ]);
      },
    };
    const found = await historyLanguages(vectors, 240);
    expect(found.sampled).toBe(240);
    expect(read.length).toBe(20);
    expect(new Set(read).size).toBe(20);
    expect(found.shares).toEqual({ fr: 0.5, en: 0.5 });
  });
});

describe('the model a history calls for', () => {
  const history = (shares: Record<string, number>) => ({
    sampled: 100,
    detected: 100,
    shares,
    notEnglish: 1 - (shares.en ?? 0),
  });

  it('takes a multilingual model from a quarter of messages not in English on', () => {
    // Languages USE was made for: USE, else e5.
    expect(chooseModel(history({ fr: 0.48, en: 0.38, de: 0.09, es: 0.03, pt: 0.02 }))).toEqual({
      model: 'use-multilingual-v3',
      reason: '62% of messages are not in English (fr 48%, en 38%, de 9%, es 3%, …)',
      multilingual: true,
      fallbacks: ['multilingual-e5-small'],
    });
    expect(chooseModel(history({ en: 0.75, fr: 0.25 })).multilingual).toBe(true);
    // A few messages told as another language (a detector errs on some) do not change it.
    expect(chooseModel(history({ fr: 0.6, en: 0.3, ca: 0.06, sv: 0.04 })).model).toBe(
      'use-multilingual-v3',
    );
    // More than a tenth in languages USE was not made for: e5, which reads about every one.
    expect(chooseModel(history({ sv: 0.5, en: 0.3, fi: 0.2 }))).toEqual({
      model: 'multilingual-e5-small',
      reason: '70% of messages are not in English (sv 50%, en 30%, fi 20%)',
      multilingual: true,
      fallbacks: [],
    });
    expect(chooseModel(history({ fr: 0.6, en: 0.29, el: 0.11 })).model).toBe(
      'multilingual-e5-small',
    );
    expect(chooseModel(history({ en: 0.76, fr: 0.24 }))).toEqual({
      model: 'all-minilm-l6-v2',
      reason: '76% of messages are in English (en 76%, fr 24%)',
      multilingual: false,
      fallbacks: [],
    });
    expect(chooseModel({ sampled: 3, detected: 0, shares: {}, notEnglish: 0 }).model).toBe(
      'all-minilm-l6-v2',
    );
  });

  it('names the fetch and the way to keep the English model in one line', () => {
    const choice = chooseModel(history({ fr: 0.9, en: 0.1 }));
    expect(missingMultilingualMessage(choice)).toBe(
      '90% of messages are not in English (fr 90%, en 10%): the English model would find little in them; install a multilingual model with chatgraph model fetch --model use-multilingual-v3 (or --model multilingual-e5-small), or keep the English one with chatgraph embed --model all-minilm-l6-v2',
    );
    expect(missingMultilingualMessage(chooseModel(history({ sv: 0.9, en: 0.1 })))).toBe(
      '90% of messages are not in English (sv 90%, en 10%): the English model would find little in them; install a multilingual model with chatgraph model fetch --model multilingual-e5-small, or keep the English one with chatgraph embed --model all-minilm-l6-v2',
    );
    const french = history({ fr: 0.9, en: 0.1 });
    expect(keptModelNote('all-minilm-l6-v2', french)).toMatch(
      /^keeping all-minilm-l6-v2, the model this data folder was embedded with, though 90% .*; chatgraph embed --model use-multilingual-v3 re-embeds/,
    );
    expect(keptModelNote('all-minilm-l6-v2', history({ en: 0.8, fr: 0.2 }))).toBeUndefined();
    expect(keptModelNote('multilingual-e5-small', french)).toBeUndefined();
    // Another multilingual model is no reason to re-embed (the note called USE "not multilingual").
    expect(keptModelNote('use-multilingual-v3', french)).toBeUndefined();
    expect(keptModelNote('paraphrase-multilingual-minilm-l12-v2@hub', french)).toBeUndefined();
  });

  it('names e5 for a folder kept on USE whose history is mostly in languages USE was not made for', () => {
    const swedish = history({ sv: 0.5, en: 0.3, fi: 0.15, fr: 0.05 });
    expect(keptModelNote('use-multilingual-v3', swedish)).toBe(
      'keeping use-multilingual-v3, the model this data folder was embedded with, though 65% of messages are in languages it was not made for (sv 50%, fi 15%); chatgraph embed --model multilingual-e5-small re-embeds everything with a model of about 100 languages',
    );
    // Under a quarter in its other languages: kept without a word.
    expect(keptModelNote('use-multilingual-v3', history({ sv: 0.2, fr: 0.5, en: 0.3 }))).toBe(
      undefined,
    );
    expect(keptModelNote('multilingual-e5-small', swedish)).toBeUndefined();
  });
});
