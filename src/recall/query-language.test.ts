import { describe, expect, it } from 'vitest';
import { queryLanguageNotice } from './query-language.js';

describe('the notice of a question in a language the model was not made for', () => {
  it('judges a question of a few words, not a word or two (eld called "retirement" French)', async () => {
    expect(await queryLanguageNotice('retirement', 'all-minilm-l6-v2')).toBeUndefined();
    expect(await queryLanguageNotice('retirement savings', 'all-minilm-l6-v2')).toBeUndefined();
    expect(
      await queryLanguageNotice('ma voiture ne démarre plus ce matin', 'all-minilm-l6-v2'),
    ).toBe(
      'the question looks French; all-minilm-l6-v2 reads English only, so what it finds by meaning may be wrong: chatgraph model fetch --model use-multilingual-v3, then chatgraph embed --model use-multilingual-v3',
    );
    expect(
      await queryLanguageNotice('how do I plan my retirement savings', 'all-minilm-l6-v2'),
    ).toBeUndefined();
    expect(
      await queryLanguageNotice('ma voiture ne démarre plus ce matin', 'multilingual-e5-small'),
    ).toBeUndefined();
  });

  it('tells a question to use-multilingual-v3 in a language beyond its 16, naming the model that reads it', async () => {
    const fetch =
      'chatgraph model fetch --model multilingual-e5-small, then chatgraph embed --model multilingual-e5-small';
    const model = 'use-multilingual-v3';
    expect(await queryLanguageNotice('hur lagar jag min cykel när kedjan hoppar av', model)).toBe(
      `the question looks Swedish; use-multilingual-v3 was not made for Swedish, so what it finds by meaning may be wrong: ${fetch}`,
    );
    expect(
      await queryLanguageNotice('πώς να φτιάξω το ποδήλατό μου όταν πέφτει η αλυσίδα', model),
    ).toMatch(/^the question looks Greek; use-multilingual-v3 was not made for Greek, .*: /);
    // Its own languages (the model card's) are not questioned.
    for (const question of [
      'ma voiture ne démarre plus ce matin',
      'mein Auto springt heute Morgen nicht an',
      'mi coche no arranca esta mañana',
      'mijn auto start vanochtend niet meer',
      'mój samochód nie chce rano zapalić',
      'arabamın motoru bu sabah çalışmıyor',
      'моя машина не заводится сегодня утром',
      'how do I plan my retirement savings',
    ])
      expect(await queryLanguageNotice(question, model), question).toBeUndefined();
    // The English model says the same of a Swedish question, the way it always has.
    expect(
      await queryLanguageNotice('hur lagar jag min cykel när kedjan hoppar av', 'all-minilm-l6-v2'),
    ).toMatch(
      /^the question looks Swedish; all-minilm-l6-v2 reads English only, .*: chatgraph model fetch --model multilingual-e5-small, /,
    );
    // Answered by its words alone, the notice says so instead of warning of its meaning.
    expect(
      await queryLanguageNotice('ma voiture ne démarre plus ce matin', 'all-minilm-l6-v2', true),
    ).toMatch(/reads English only, so it was searched by its words only: chatgraph model fetch /);
  });
});
