import { MULTILINGUAL_MODEL, modelLanguages } from '../embed/model-catalog.js';
import { detectLanguage, preloadLanguageDetector } from '../search/language-detection.js';
import { LISTED_LANGUAGES_MODEL } from './model-choice.js';

/**
 * Fewer words than this say too little of their language: eld called "retirement" French. Such a
 * query is not judged, and eld's data (a 1.6 MB module, 0.2 s of a cold search: issue 46) is
 * not loaded for it.
 */
const JUDGED_FROM_WORDS = 3;

/**
 * The language of a question as eld tells it, when it is sure and the question has at least
 * {@link JUDGED_FROM_WORDS} words (else undefined, without loading eld's data).
 */
export async function questionLanguage(text: string): Promise<string | undefined> {
  if ((text.match(/\p{L}+/gu) ?? []).length < JUDGED_FROM_WORDS) return undefined;
  await preloadLanguageDetector();
  return detectLanguage(text);
}

/**
 * One sentence when a query is in a language the model searching by meaning was not made for
 * (a French question to the English model, a Swedish one to use-multilingual-v3, finds
 * conversations by the shape of its letters, not by what it asks), naming the command that
 * installs a model that reads it: use-multilingual-v3 for one of its 16 languages (it finds more
 * of the questions written apart than e5, as `embed` chooses it), else multilingual-e5-small; none when the language cannot be told
 * ({@link questionLanguage}) or the model covers it. `byWordsOnly`: the
 * question was answered by its words alone (`outside-language.ts`), and the notice says so.
 */
export async function queryLanguageNotice(
  text: string,
  model: string,
  byWordsOnly = false,
): Promise<string | undefined> {
  const covered = modelLanguages(model);
  if (covered === undefined) return undefined;
  const language = await questionLanguage(text);
  if (language === undefined || covered.includes(language)) return undefined;
  const name = languageName(language);
  const reads =
    covered.length === 1
      ? `reads ${languageName(covered[0] ?? language)} only`
      : `was not made for ${name}`;
  const reader = (modelLanguages(LISTED_LANGUAGES_MODEL) ?? []).includes(language)
    ? LISTED_LANGUAGES_MODEL
    : MULTILINGUAL_MODEL;
  const so = byWordsOnly
    ? 'so it was searched by its words only'
    : 'so what it finds by meaning may be wrong';
  return `the question looks ${name}; ${model} ${reads}, ${so}: chatgraph model fetch --model ${reader}, then chatgraph embed --model ${reader}`;
}

/** A language's English name (`French` for `fr`). */
function languageName(code: string): string {
  // Made here, not at import: ICU's data is loaded for it.
  return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
}
