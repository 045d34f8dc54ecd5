import { MODEL_CATALOG, MULTILINGUAL_MODEL } from '../embed/model-catalog.js';
import { detectLanguage, preloadLanguageDetector } from '../search/language-detection.js';

const names = new Intl.DisplayNames(['en'], { type: 'language' });

/** The languages a model was made for (its catalog entry's), or none when it is not known. */
function modelLanguages(model: string): readonly string[] | undefined {
  const lower = model.toLowerCase();
  return MODEL_CATALOG.find(
    (entry) => entry.name === lower || entry.sources.some((source) => source.id === lower),
  )?.languages;
}

/**
 * One sentence when a query is in a language the model searching by meaning was not made for
 * (a French question to the English model finds conversations by the shape of its letters, not
 * by what it asks), naming the command that installs the multilingual model; none when the
 * language cannot be told (short or mixed text) or the model covers it.
 */
export async function queryLanguageNotice(
  text: string,
  model: string,
): Promise<string | undefined> {
  const covered = modelLanguages(model);
  if (covered === undefined) return undefined;
  await preloadLanguageDetector();
  const language = detectLanguage(text);
  if (language === undefined || covered.includes(language)) return undefined;
  const name = names.of(language) ?? language;
  return `the question looks ${name}; ${model} reads English only, so what it finds by meaning may be wrong: chatgraph model fetch --model ${MULTILINGUAL_MODEL}, then chatgraph embed --model ${MULTILINGUAL_MODEL}`;
}
