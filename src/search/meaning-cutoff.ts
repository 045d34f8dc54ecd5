import type { SearchHit } from '../stores/search-hit.js';
import { dot } from './similarity.js';

/**
 * How a model's similarities are judged (calibrated per model, `node bench/recall-quality.mjs
 * --library --floors`): a text is close in meaning to a query when its similarity stands at
 * least `margin` above the query's own noise level (see {@link noiseLevel}), and, among the
 * hits of one query, when it keeps at least `keep` of the best hit's lead over that level.
 */
export interface MeaningCutoff {
  margin: number;
  keep: number;
  /**
   * Between conversations (Related, the topic map's nearest topic), where every side is a mean
   * of many texts and nonsense is no reference: how many standard deviations a neighbour must
   * stand above the conversation's own similarities to all the others.
   */
  relatedZ: number;
  /**
   * A query's hit found by meaning only is shown, too, when its similarity stands this much above
   * the best that shuffles of the query's letters reach among the same passages (and keeps `keep`
   * of the best hit's lead over that), see `recall/letter-noise.ts`; no such test when absent.
   */
  letters?: number;
  /** The share of the best hit's lead over what the shuffles reach (else `keep`). */
  lettersKeep?: number;
  /**
   * How much nearer to a placeholder text than to its own shuffles a query must stand for the
   * placeholder texts to join its letter reference (`recall/letter-noise.ts`,
   * `readsAsPlaceholder`); when absent they always join.
   */
  placeholderLead?: number;
}

/**
 * What one query is judged by: its noise level (the highest similarity it has to texts that
 * mean nothing) and its model's cutoff.
 */
export interface MeaningTest extends MeaningCutoff {
  noise: number;
}

/** For a model never calibrated: a match must at least beat nonsense, and stay near the best. */
export const UNCALIBRATED_CUTOFF: MeaningCutoff = { margin: 0, keep: 0.5, relatedZ: 3 };

/** No test at all (no noise texts to judge by): every hit is kept. */
export const NO_TEST: MeaningTest = { noise: -Infinity, margin: 0, keep: 0, relatedZ: 0 };

/** Fewer others than this and a spread of similarities says nothing: no neighbour is named. */
export const MIN_OTHERS = 8;

/**
 * Of one item's similarities to every other (a conversation's to the others, a topic's centre
 * to the other centres), the indexes of those standing at least `z` standard deviations above
 * their mean, best first; none when there are too few others to tell.
 */
export function standingOut(similarities: readonly number[], z: number): number[] {
  if (similarities.length < MIN_OTHERS) return [];
  let sum = 0;
  for (const s of similarities) sum += s;
  const mean = sum / similarities.length;
  let spread = 0;
  for (const s of similarities) spread += (s - mean) ** 2;
  const sd = Math.sqrt(spread / similarities.length);
  if (sd === 0) return [];
  return similarities
    .map((s, i) => ({ s, i }))
    .filter(({ s }) => (s - mean) / sd >= z)
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map(({ i }) => i);
}

function norm(a: Float32Array): number {
  return Math.sqrt(dot(a, a));
}

/**
 * The query's noise level: its highest cosine similarity to the model's vectors of texts that
 * mean nothing (letters at random, keyboard runs). Every model finds something "near" any
 * query (multilingual-e5-small puts nearly all pairs between 0.8 and 0.9, gibberish included),
 * so a match counts only by how far it stands above what nonsense gets from the same query.
 */
export function noiseLevel(vector: Float32Array, noise: readonly Float32Array[]): number {
  const length = norm(vector);
  if (length === 0 || noise.length === 0) return -Infinity;
  let level = -Infinity;
  for (const n of noise) level = Math.max(level, dot(vector, n) / (length * (norm(n) || 1)));
  return level;
}

/**
 * The least similarity a hit needs to be shown, given the best similarity of its search. A noise
 * level of Infinity shows nothing by meaning (a question the model does not read:
 * `recall/outside-language.ts`).
 */
export function leastSimilarity(best: number, test: MeaningTest): number {
  if (test.noise === -Infinity) return -Infinity;
  if (test.noise === Infinity) return Infinity;
  const lead = best - test.noise;
  return test.noise + Math.max(test.margin, test.keep * lead);
}

/**
 * Ranked hits without those matched by meaning only that the test leaves out (hits matched by
 * words always stay), and how many were left out.
 */
export function closeInMeaning(
  hits: readonly SearchHit[],
  test: MeaningTest,
): { hits: SearchHit[]; below: number } {
  let best = -Infinity;
  for (const hit of hits) best = Math.max(best, hit.why?.semantic?.similarity ?? -Infinity);
  const least = leastSimilarity(best, test);
  const kept = hits.filter(
    (hit) =>
      hit.why?.keyword !== undefined || (hit.why?.semantic?.similarity ?? -Infinity) >= least,
  );
  return { hits: kept, below: hits.length - kept.length };
}
