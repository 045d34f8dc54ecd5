import { modelLanguages } from '../embed/model-catalog.js';
import { languageScores } from '../search/language-detection.js';
import type { MeaningTest } from '../search/meaning-cutoff.js';
import { questionLanguage } from './query-language.js';

// Issue 43: a model made for one language reads a question in another by the shape of its
// letters. all-minilm-l6-v2 answered 118 of the recall bench's 137 labelled questions in French,
// German, Spanish or Portuguese by meaning, and only 13 of those answers held the question's
// conversation among the first three: a French question finds French conversations, whatever it
// asks ("les règles de la pétanque" → a crêpe batter, a lease letter, a cat). Such a question is
// answered by its words only (docs/search.md, "Questions in a language the model does not read").

/**
 * How much higher eld must score the query's language than the model's for the query to be
 * judged outside it: eld called "fixing a punctured bike tube" Romanian, 0.001 above English; of
 * the recall bench's 161 other questions it judged in a language not English, the nearest to
 * English was "colocation et caution" (French, 0.031), the next 0.085.
 */
const CLEARLY_OTHER = 0.05;

/**
 * Whether `text` is, by its language, outside what `model` reads: the model was made for one
 * language (its catalog entry's `languages`), eld is sure the question is in another
 * ({@link questionLanguage}: three words or more), clearly ({@link CLEARLY_OTHER}). Models made for many
 * languages are not judged so: they read languages near theirs (Catalan beside Spanish), and eld
 * names some of the bench's questions in their languages wrongly ("pneu furado" Yoruba, "alergia
 * al polen en primavera" Catalan).
 */
export async function outsideModelLanguage(text: string, model: string): Promise<boolean> {
  const covered = modelLanguages(model);
  if (covered?.length !== 1) return false;
  const language = await questionLanguage(text);
  if (language === undefined || covered.includes(language)) return false;
  const scores = languageScores(text);
  const top = scores[language] ?? 0;
  return covered.every((own) => (scores[own] ?? 0) < top - CLEARLY_OTHER);
}

/** A test that shows nothing found by meaning only (hits found by words stay). */
export function nothingByMeaning(test: MeaningTest): MeaningTest {
  return { ...test, noise: Infinity };
}

/** Whether a test is {@link nothingByMeaning}'s: the question was left to its words. */
export function leftToWords(test: MeaningTest): boolean {
  return test.noise === Infinity;
}
