import { describe, expect, it } from 'vitest';
import { queryLanguageNotice } from './query-language.js';

describe('the notice of a question in a language the model was not made for', () => {
  it('judges a question of a few words, not a word or two (eld called "retirement" French)', async () => {
    expect(await queryLanguageNotice('retirement', 'all-minilm-l6-v2')).toBeUndefined();
    expect(await queryLanguageNotice('retirement savings', 'all-minilm-l6-v2')).toBeUndefined();
    expect(
      await queryLanguageNotice('ma voiture ne démarre plus ce matin', 'all-minilm-l6-v2'),
    ).toMatch(/^the question looks French; all-minilm-l6-v2 reads English only/);
    expect(
      await queryLanguageNotice('how do I plan my retirement savings', 'all-minilm-l6-v2'),
    ).toBeUndefined();
    expect(
      await queryLanguageNotice('ma voiture ne démarre plus ce matin', 'multilingual-e5-small'),
    ).toBeUndefined();
  });
});
