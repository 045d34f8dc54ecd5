import { MODEL_CATALOG, MULTILINGUAL_MODEL } from '../embed/model-catalog.js';
import { detectLanguage, preloadLanguageDetector } from '../search/language-detection.js';

/** The languages a model was made for (its catalog entry's), or none when it is not known. */
function modelLanguages(model: string): readonly string[] | undefined {
  const lower = model.toLowerCase();
  return MODEL_CATALOG.find(
    (entry) => entry.name === lower || entry.sources.some((source) => source.id === lower),
  )?.languages;
}

/**
 * Fewer words than this say too little of their language: eld called "retirement" French. Such a
 * query is not judged, and eld's data (a 1.6 MB module, 0.2 s of a cold search: issue 46) is
 * not loaded for it.
 */
const JUDGED_FROM_WORDS = 3;

/**
 * One sentence when a query is in a language the model searching by meaning was not made for
 * (a French question to the English model finds conversations by the shape of its letters, not
 * by what it asks), naming the command that installs the multilingual model; none when the
 * language cannot be told (fewer than {@link JUDGED_FROM_WORDS} words, mixed text) or the model
 * covers it.
 */
export async function queryLanguageNotice(
  text: string,
  model: string,
): Promise<string | undefined> {
  const covered = modelLanguages(model);
  if (covered === undefined) return undefined;
  if ((text.match(/\p{L}+/gu) ?? []).length < JUDGED_FROM_WORDS) return undefined;
  await preloadLanguageDetector();
  const language = detectLanguage(text);
  if (language === undefined || covered.includes(language)) return undefined;
  // Made here, not at import: ICU's data is loaded for it.
  const name = new Intl.DisplayNames(['en'], { type: 'language' }).of(language) ?? language;
  return `the question looks ${name}; ${model} reads English only, so what it finds by meaning may be wrong: chatgraph model fetch --model ${MULTILINGUAL_MODEL}, then chatgraph embed --model ${MULTILINGUAL_MODEL}`;
}
