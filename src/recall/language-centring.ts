import {
  detectLanguage,
  languageDetectorReady,
  preloadLanguageDetector,
} from '../search/language-detection.js';
import { proseOf } from './history-languages.js';
import type { EmbeddingText, VectorHit, VectorIndex } from '../stores/vector-index.js';
import { noiseLevel } from '../search/meaning-cutoff.js';
import { decodeVectors, encodeVectors } from './meaning-noise.js';
import type { StoredCentres } from './embedding-settings.js';
import { dot } from '../search/similarity.js';

/**
 * Centring by language (issue 43). A multilingual model puts every text of one language near
 * that language's own corner: a Spanish question about an English conversation finds Spanish
 * conversations first, by language rather than by topic. Taking each language's mean vector out
 * of the vectors of that language (a conversation's by the language of its messages, a query's
 * by its own) leaves what the texts are about. Measured on the recall bench (see
 * docs/search.md) and on for the models whose calibration says so.
 */

/** One language's mean vector over its conversations' mean vectors, and how many there were. */
export interface LanguageMean {
  count: number;
  mean: Float32Array;
}

/** What `embed` keeps to centre by (beside the noise vectors in `embedding.json`). */
export interface LanguageCentres {
  model: string;
  /** Language (ISO 639-1) -> its mean; '' holds conversations whose language was not told. */
  languages: Map<string, LanguageMean>;
  /** Each embedded conversation's language ('' when it could not be told). */
  conversations: Map<string, string>;
}

export function encodeCentres(centres: LanguageCentres): StoredCentres {
  const languages: StoredCentres['languages'] = {};
  for (const [language, { count, mean }] of centres.languages)
    languages[language] = { count, mean: encodeVectors([mean]) };
  return {
    model: centres.model,
    languages,
    conversations: Object.fromEntries(centres.conversations),
  };
}

/** The centres kept for `model` (none when they are another model's or do not decode). */
export function decodeCentres(
  stored: StoredCentres | undefined,
  model: string,
  dimensions: number,
): LanguageCentres | undefined {
  if (stored?.model !== model) return undefined;
  const languages = new Map<string, LanguageMean>();
  for (const [language, { count, mean }] of Object.entries(stored.languages)) {
    const [vector] = decodeVectors(mean, dimensions);
    if (!vector) return undefined;
    languages.set(language, { count, mean: vector });
  }
  return { model, languages, conversations: new Map(Object.entries(stored.conversations)) };
}

/** Messages read to tell a conversation's language: enough prose, spread over it. */
const MESSAGES_READ = 12;

/**
 * The language of a conversation (ISO 639-1), by eld over the prose of up to twelve of its
 * messages spread over it (code, links and numbers taken out); '' when it cannot tell.
 */
export function conversationLanguage(texts: readonly EmbeddingText[]): string {
  const messages = texts.filter((text) => text.kind === 'message');
  const step = Math.max(1, messages.length / MESSAGES_READ);
  const prose: string[] = [];
  for (let i = 0; i < messages.length && prose.length < MESSAGES_READ; i += step)
    prose.push(proseOf(messages[Math.floor(i)]?.text ?? '').slice(0, 600));
  const sample = prose.join('\n');
  if (sample.trim() === '') return '';
  return detectLanguage(sample) ?? '';
}

/**
 * Every embedded conversation's language (those `known` keep theirs: only new ones are read)
 * and each language's mean of the conversations' mean vectors, from the vectors the store
 * holds: after each `embed`, and for a folder embedded before centring, on its first search.
 */
export async function measureCentres(
  vectors: Pick<VectorIndex, 'conversationVectors' | 'texts'>,
  model: string,
  known?: LanguageCentres,
): Promise<LanguageCentres> {
  if (!languageDetectorReady()) await preloadLanguageDetector();
  const means = await vectors.conversationVectors(Number.MAX_SAFE_INTEGER);
  const conversations = new Map<string, string>();
  const sums = new Map<string, { count: number; sum: Float64Array }>();
  const kept = known?.model === model ? known.conversations : undefined;
  for (const { owner, vector } of means) {
    if (vector.length === 0) continue;
    const language = kept?.get(owner) ?? conversationLanguage(await vectors.texts(owner));
    conversations.set(owner, language);
    let entry = sums.get(language);
    if (!entry) sums.set(language, (entry = { count: 0, sum: new Float64Array(vector.length) }));
    entry.count++;
    for (let i = 0; i < vector.length; i++) entry.sum[i] = (entry.sum[i] ?? 0) + (vector[i] ?? 0);
  }
  const languages = new Map<string, LanguageMean>();
  for (const [language, { count, sum }] of sums)
    languages.set(language, { count, mean: Float32Array.from(sum, (s) => s / count) });
  return { model, languages, conversations };
}

/**
 * How many conversations' worth of the folder's overall mean a language's own mean is shrunk
 * towards: a language of a few conversations is centred mostly on the overall mean (its own
 * mean would be little more than those conversations' topics), one of many on its own.
 */
export const SHRINK_CONVERSATIONS = 5;

function minus(a: Float32Array, b: Float32Array): Float32Array {
  return Float32Array.from(a, (value, i) => value - (b[i] ?? 0));
}

function unit(a: Float32Array): Float32Array {
  const length = Math.sqrt(dot(a, a));
  return length === 0 ? a : Float32Array.from(a, (value) => value / length);
}

/** A query's vector centred on its language, and how hits found with it are scored. */
export interface CentredQuery {
  /** The query's language (ISO 639-1), or '' when it was not told. */
  language: string;
  /** The query less its language's mean, of length 1: what the index is searched with. */
  vector: Float32Array;
  /**
   * A hit's cosine in centred space: exact from its chunk's vector when the store gave it, else
   * from its similarity to {@link vector} with the length its language's passages have on
   * average once centred.
   */
  score(hit: Pick<VectorHit, 'owner' | 'similarity' | 'vector'>): number;
  /** The query's noise level in centred space (the noise texts centred on the overall mean). */
  noise(noise: readonly Float32Array[]): number;
  /**
   * How near the hit's conversation's language stands to the query's, as the model sees any two
   * texts of them: the dot product of the two languages' centres (what two conversations of
   * those languages have in common on average); hits are ranked by their plain similarity less
   * the model's `pairWeight` times it (`embed/model-catalog.ts`).
   */
  languagePair(owner: string): number;
}

/** Centres queries and scores hits by the folder's language means. */
export interface Centring {
  query(text: string, vector: Float32Array): CentredQuery;
}

/**
 * Centring by these means. A hit's centred cosine is (p − μa)·(q − μb) / (|p − μa| |q − μb|)
 * for a passage p of language a and the query q of language b; the index scores p·(q − μb)
 * (normalised), the language's term μa·(q − μb) is one number a language, and |p − μa| is
 * taken as its expected value over the language, √(1 − 2 μa·m + |μa|²) with m the language's
 * own mean, so the index's vectors stay as the model made them.
 */
export function centringBy(centres: LanguageCentres, shrink = SHRINK_CONVERSATIONS): Centring {
  let total = 0;
  let overall: Float64Array | undefined;
  for (const { count, mean } of centres.languages.values()) {
    overall ??= new Float64Array(mean.length);
    for (let i = 0; i < mean.length; i++) overall[i] = (overall[i] ?? 0) + (mean[i] ?? 0) * count;
    total += count;
  }
  const overallMean = Float32Array.from(overall ?? [], (s) => s / Math.max(1, total));
  const k = shrink;
  // Each language's centre (shrunk towards the overall mean) and the expected length of one of
  // its passages once centred.
  const centreOf = new Map<string, { centre: Float32Array; length: number }>();
  for (const [language, { count, mean }] of centres.languages) {
    const centre = Float32Array.from(
      mean,
      (value, i) => (count * value + k * (overallMean[i] ?? 0)) / (count + k),
    );
    const squared = 1 - 2 * dot(centre, mean) + dot(centre, centre);
    centreOf.set(language, { centre, length: Math.sqrt(Math.max(0.05, squared)) });
  }
  const fallback = {
    centre: overallMean,
    length: Math.sqrt(Math.max(0.05, 1 - dot(overallMean, overallMean))),
  };
  const of = (language: string | undefined) =>
    (language !== undefined && language !== '' ? centreOf.get(language) : undefined) ?? fallback;
  return {
    query(text, vector) {
      const language = detectLanguage(text) ?? '';
      const searched = unit(minus(vector, of(language).centre));
      // The language term a hit's score loses, per language, made once per query.
      const shift = new Map<string, number>();
      const pair = new Map<string, number>();
      const queryCentre = of(language).centre;
      const shiftOf = (passage: { centre: Float32Array }): number => dot(passage.centre, searched);
      return {
        language,
        vector: searched,
        score(hit) {
          const passageLanguage = centres.conversations.get(hit.owner) ?? '';
          const passage = of(passageLanguage);
          if (hit.vector) {
            const centred = minus(hit.vector, passage.centre);
            return dot(centred, searched) / (Math.sqrt(dot(centred, centred)) || 1);
          }
          let term = shift.get(passageLanguage);
          if (term === undefined) shift.set(passageLanguage, (term = shiftOf(passage)));
          return (hit.similarity - term) / passage.length;
        },
        languagePair(owner) {
          const passageLanguage = centres.conversations.get(owner) ?? '';
          let term = pair.get(passageLanguage);
          if (term === undefined)
            pair.set(passageLanguage, (term = dot(of(passageLanguage).centre, queryCentre)));
          return term;
        },
        noise(noise) {
          return noiseLevel(
            searched,
            noise.map((n) => minus(n, overallMean)),
          );
        },
      };
    },
  };
}
