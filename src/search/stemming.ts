import { stemmerClass } from './stemmer-class.js';
import { detectLanguage } from './language-detection.js';

/**
 * Per-language stemming for keyword search: the Snowball stemmers of nlp.js, so "panneaux"
 * finds "panneau" and "Wohnungen" finds "Wohnung". A message's words are stemmed in its
 * conversation's language (or its own, when it is long enough to say); a search's words in
 * every language stemmed here, since a query of two words says little of its language.
 */

/** The languages stemmed (ISO 639-1); text in another language is indexed word for word. */
export const STEM_LANGUAGES = ['en', 'fr', 'de', 'es', 'pt', 'it', 'nl'] as const;

export { stemmerClass };
export type StemLanguage = (typeof STEM_LANGUAGES)[number];

interface SnowballStemmer {
  setCurrent(word: string): void;
  innerStem(): void;
  getCurrent(): string;
}

function isStemmer(value: unknown): value is SnowballStemmer {
  return (
    typeof value === 'object' &&
    value !== null &&
    'innerStem' in value &&
    typeof value.innerStem === 'function'
  );
}

/** Words stemmed once are remembered, up to this many a language (then forgotten at once). */
const CACHE_LIMIT = 100_000;

interface Loaded {
  stemmer: SnowballStemmer;
  cache: Map<string, string>;
}
const loaded = new Map<StemLanguage, Loaded>();

function stemmerOf(language: StemLanguage): Loaded {
  let entry = loaded.get(language);
  if (!entry) {
    const name = `Stemmer${language[0]?.toUpperCase() ?? ''}${language.slice(1)}`;
    const Class = stemmerClass(language);
    if (typeof Class !== 'function') throw new Error(`@nlpjs/lang-${language} has no ${name}`);
    const stemmer: unknown = Reflect.construct(Class, []);
    if (!isStemmer(stemmer)) throw new Error(`@nlpjs/lang-${language}'s ${name} is not a stemmer`);
    // nlp.js's own stemWord caches every word for ever; this cache is bounded.
    entry = { stemmer, cache: new Map() };
    loaded.set(language, entry);
  }
  return entry;
}

/** Whether `code` (ISO 639-1) is a language stemmed here. */
export function isStemLanguage(code: string | undefined): code is StemLanguage {
  return STEM_LANGUAGES.some((language) => language === code);
}

/** Lower case without accents, as FTS5's `unicode61 remove_diacritics 2` folds what it indexes. */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** Capitals (NAS, API, SQL, S3): a name, never stemmed ("NAS" is not the plural of "na"). */
export function isAcronym(word: string): boolean {
  return /^\p{Lu}[\p{Lu}\p{N}]+$/u.test(word);
}

// Portuguese plurals of -ão (corações, pães, mãos) that Snowball leaves apart from the singular.
const PORTUGUESE_PLURAL = /(?:ões|ães|ãos)$/u;

/** One word as the stemmed index holds it: its stem in `language`, folded. */
export function stemWord(word: string, language: StemLanguage | undefined): string {
  if (language === undefined) return foldWord(word);
  const { stemmer, cache } = stemmerOf(language);
  // Keyed by the word as written, so the common case is one lookup (measured: the checks
  // below on every word cost more than the stemming of the words not yet seen).
  let stem = cache.get(word);
  if (stem === undefined) {
    if (isAcronym(word) || /\p{N}/u.test(word)) stem = foldWord(word);
    else {
      const lower = word.toLowerCase();
      stemmer.setCurrent(language === 'pt' ? lower.replace(PORTUGUESE_PLURAL, 'ão') : lower);
      stemmer.innerStem();
      stem = foldWord(stemmer.getCurrent());
    }
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(word, stem);
  }
  return stem;
}

const WORDS = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * A text as the stemmed index holds it: each word replaced by its stem in `language`; what
 * lies between words is kept (the tokenizer skips it, and copying it costs less than a join).
 */
export function stemText(text: string, language: StemLanguage | undefined): string {
  return text.replace(WORDS, (word) => stemWord(word, language)).replace(APOSTROPHES, ' ');
}

/**
 * Apostrophes, written as spaces in the stemmed text: Lucene's standard tokenizer keeps
 * "l'automne" one word (FTS5 splits it), so on Neo4j "automne" found nothing of French elisions.
 */
const APOSTROPHES = /['\u2019\u02BC]/gu;

/** A word searched for: its stems in each of `languages`, and the word itself folded. */
export function queryStems(
  word: string,
  languages: readonly StemLanguage[] = STEM_LANGUAGES,
): string[] {
  const stems = new Set([foldWord(word)]);
  for (const language of languages) stems.add(stemWord(word, language));
  return [...stems];
}

/** Messages this long are checked for a language of their own (shorter ones say too little). */
const OWN_LANGUAGE_CHARS = 200;
/** How much of a text language detection reads (eld: about 0.05 ms per 200 characters). */
const DETECT_CHARS = 300;
/** Letters with accents: text in a stemmed language other than English (Dutch aside) has some. */
const ACCENTED = /[\u00C0-\u024F]/u;

// Common English words that are no word of the other languages stemmed here (Dutch has "is",
// "was" and "of"; Italian "i").
const ENGLISH = /\b(?:the|and|to|you|that|it|for|with|this|are|be|have|what|can|how)\b/giu;

/**
 * Whether a sample reads as English by its commonest words (one word in 16 or more; text
 * in the other languages has next to none): English, most of most histories, is then told
 * without eld, so an import in English never loads eld's data (0.4 s and 160 MB).
 */
export function looksEnglish(sample: string): boolean {
  const words = sample.split(/\s+/u).length;
  return (sample.match(ENGLISH)?.length ?? 0) * 16 >= words;
}

// A message of an English (or unknown) conversation asked about its own language: only when it
// has accents and does not read as English ("a café in Zürich" does).
function mayDiffer(sample: string): boolean {
  return ACCENTED.test(sample) && !looksEnglish(sample);
}

function conversationSample(title: string, messages: readonly string[]): string {
  let sample = title;
  for (const text of messages) {
    if (sample.length >= DETECT_CHARS * 2) break;
    sample += `\n${text.slice(0, DETECT_CHARS)}`;
  }
  return sample.slice(0, DETECT_CHARS * 3);
}

/** A conversation's language, from its title and first messages; undefined when not stemmed. */
export function conversationLanguage(
  title: string,
  messages: readonly string[],
): StemLanguage | undefined {
  const sample = conversationSample(title, messages);
  if (looksEnglish(sample)) return 'en';
  const code = detectLanguage(sample);
  return isStemLanguage(code) ? code : undefined;
}

/**
 * Whether telling the languages of a conversation (`first` its title and first messages,
 * `all` every message) needs eld: what {@link conversationLanguage} and
 * {@link messageLanguage} would ask it, so a writer loads it before its transaction.
 */
export function needsDetector(
  title: string,
  first: readonly string[],
  all: readonly string[],
): boolean {
  if (!looksEnglish(conversationSample(title, first))) return true;
  return all.some(
    (text) => text.length >= OWN_LANGUAGE_CHARS && mayDiffer(text.slice(0, DETECT_CHARS)),
  );
}

/** A message's language: its own when it is long and eld is sure, else its conversation's. */
export function messageLanguage(
  text: string,
  conversation: StemLanguage | undefined,
): StemLanguage | undefined {
  if (text.length < OWN_LANGUAGE_CHARS) return conversation;
  const sample = text.slice(0, DETECT_CHARS);
  // In an English (or unknown) conversation, a message without accents is taken to be in its
  // language: detecting every long message was most of the cost of stemming (0.1 ms each).
  if ((conversation === 'en' || conversation === undefined) && !mayDiffer(sample))
    return conversation;
  const code = detectLanguage(sample);
  if (code === undefined) return conversation;
  return isStemLanguage(code) ? code : undefined;
}
