import { describe, expect, it } from 'vitest';
import { closeInMeaning, type MeaningTest } from '../search/meaning-cutoff.js';
import type { SearchHit } from '../stores/search-hit.js';
import { nothingByMeaning, outsideModelLanguage } from './outside-language.js';

describe('a question in a language its model does not read (issue 43)', () => {
  it('is told for the English model, from three words on, and never for a multilingual one', async () => {
    const english = 'all-minilm-l6-v2';
    for (const question of [
      'horaires des marées à Saint-Malo',
      'precio del oro en 1980',
      'Weihnachtsbaum länger frisch halten',
    ])
      expect(await outsideModelLanguage(question, english), question).toBe(true);
    // English, too few words to tell (eld called "retirement" French), and English that eld
    // scores a hair above English as Romanian.
    for (const question of [
      'my car will not start',
      'retirement',
      'retirement savings',
      'fixing a punctured bike tube',
    ])
      expect(await outsideModelLanguage(question, english), question).toBe(false);
    for (const model of ['multilingual-e5-small', 'use-multilingual-v3', 'some/other-model'])
      expect(await outsideModelLanguage('horaires des marées à Saint-Malo', model)).toBe(false);
  });

  it('keeps what its words find and nothing found by meaning only', () => {
    const hit = (id: string, why: SearchHit['why']) => ({ messageId: id, why }) as SearchHit;
    const hits = [
      hit('meaning', { semantic: { rank: 1, similarity: 0.9 } }),
      hit('words', { keyword: { rank: 1 }, semantic: { rank: 2, similarity: 0.5 } }),
    ];
    const test: MeaningTest = { noise: 0.2, margin: 0.08, keep: 0.5, relatedZ: 3 };
    expect(closeInMeaning(hits, test).hits.map((h) => h.messageId)).toEqual(['meaning', 'words']);
    const judged = closeInMeaning(hits, nothingByMeaning(test));
    expect(judged.hits.map((h) => h.messageId)).toEqual(['words']);
    expect(judged.below).toBe(1);
  });
});
