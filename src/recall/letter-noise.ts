/**
 * The query's own letters as a reference (issue 43): the same text with the letters of each
 * word shuffled keeps its length, its scripts and its letters, and loses its words. A hit that
 * the query's words bring near stands well above what those shuffles reach among the same
 * passages; a hit nonsense reaches does not (shuffled nonsense is nonsense alike), nor, mostly,
 * one a real question about something the history never mentions reaches by its shape alone.
 * Short questions in another language than their conversation's stand below the model's noise
 * level (random letters, `embed/noise-texts.ts`) and are judged fairly by this instead.
 */

import { leastSimilarity } from '../search/meaning-cutoff.js';
import { dot } from '../search/similarity.js';

/** How many shuffles of the query are embedded with it. */
export const LETTER_SHUFFLES = 4;

/**
 * Placeholder text is words that mean nothing: its words survive no shuffle, so the shuffles
 * alone would not tell it from a question.
 */
export const PLACEHOLDER_TEXTS: readonly string[] = [
  'lorem ipsum',
  'lorem ipsum dolor sit amet',
  'consectetur adipiscing elit',
  'sed do eiusmod tempor incididunt ut labore et dolore magna aliqua',
  'lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua',
];

/** A small deterministic generator (the same shuffles for the same query, every time). */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) & 0x7fffffff;
    return state / 0x80000000;
  };
}

// Letters as a reader sees them: an accent written as a mark of its own stays on its letter.
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** `text` with the letters of each word shuffled, `count` ways, white space kept. */
export function shuffledWords(text: string, count = LETTER_SHUFFLES): string[] {
  return Array.from({ length: count }, (_, j) => {
    const next = generator(17 + j * 7919);
    return text
      .split(/(\s+)/u)
      .map((word) => {
        const letters = Array.from(graphemes.segment(word), (part) => part.segment);
        for (let i = letters.length - 1; i > 0; i--) {
          const k = Math.floor(next() * (i + 1));
          const a = letters[i] ?? '';
          letters[i] = letters[k] ?? '';
          letters[k] = a;
        }
        return letters.join('');
      })
      .join('');
  });
}

/** The texts a query's hits are compared with: its shuffles and the placeholder texts. */
export function letterReferenceTexts(text: string): string[] {
  return [...shuffledWords(text), ...PLACEHOLDER_TEXTS];
}

/** What the letter test compares a query's hits with, and how far they must stand above it. */
export interface LetterReference {
  /** The model's vectors of the query's shuffles ({@link shuffledWords}). */
  vectors: Float32Array[];
  /** The model's vectors of {@link PLACEHOLDER_TEXTS}. */
  placeholders?: Float32Array[];
  /**
   * How much nearer (in cosine) the query must stand to a placeholder text than to every one of
   * its own shuffles for the placeholder texts to join the reference (see
   * {@link readsAsPlaceholder}); when absent they always join.
   */
  placeholderLead?: number | undefined;
  /** How far a hit must stand above the best the reference reaches among the hits. */
  margin: number;
  /** The share of the best hit's lead over that a hit must keep. */
  keep: number;
}

function cosine(a: Float32Array, b: Float32Array): number {
  return dot(a, b) / ((Math.sqrt(dot(a, a)) || 1) * (Math.sqrt(dot(b, b)) || 1));
}

/**
 * Whether a query reads as placeholder text: it stands at least `lead` nearer (in cosine) to one
 * of the placeholder texts than to any of its own shuffles. Placeholder words survive no
 * shuffle, so its shuffles do not judge it; a real question is nearer its own shuffles (its
 * letters) than it is to "lorem ipsum", or not much farther. Measured with use-multilingual-v3
 * (docs/search.md, "The letter test"): fragments of lorem ipsum stand 0.47 to 0.56 nearer a
 * placeholder, the labelled questions of the tuning sets at most 0.21 ("colocation et caution").
 */
export function readsAsPlaceholder(
  query: Float32Array,
  shuffles: readonly Float32Array[],
  placeholders: readonly Float32Array[],
  lead: number,
): boolean {
  let own = -Infinity;
  for (const s of shuffles) own = Math.max(own, cosine(query, s));
  let placeholder = -Infinity;
  for (const p of placeholders) placeholder = Math.max(placeholder, cosine(query, p));
  return placeholder - own >= lead;
}

/**
 * Of a query's nearest hits, those whose cosine to the query stands the reference's margin above
 * the highest cosine any reference vector has to any of these hits (what the query's letters
 * reach without its words), keeping `keep` of the best hit's lead over it. The reference is the
 * query's shuffles, and the placeholder texts when the query reads as one of them (or always,
 * when the reference names no `placeholderLead`): placeholder texts in the reference otherwise
 * lift what it reaches among passages in French, Spanish or Portuguese, and real questions about
 * them were lost (issue 43). Hits without a vector (Neo4j sends none back) are not judged: none
 * pass.
 */
export function aboveLetters<T extends { vector?: Float32Array | undefined }>(
  hits: readonly T[],
  query: Float32Array,
  reference: LetterReference,
): T[] {
  const { margin, keep, placeholders = [], placeholderLead } = reference;
  const vectors =
    placeholderLead === undefined ||
    readsAsPlaceholder(query, reference.vectors, placeholders, placeholderLead)
      ? [...reference.vectors, ...placeholders]
      : reference.vectors;
  const lengths = vectors.map((v) => Math.sqrt(dot(v, v)) || 1);
  const queryLength = Math.sqrt(dot(query, query)) || 1;
  let reached = -Infinity;
  let best = -Infinity;
  const own: { hit: T; similarity: number }[] = [];
  for (const hit of hits) {
    const vector = hit.vector;
    if (!vector) continue;
    const length = Math.sqrt(dot(vector, vector)) || 1;
    const similarity = dot(vector, query) / (length * queryLength);
    own.push({ hit, similarity });
    best = Math.max(best, similarity);
    vectors.forEach((v, i) => {
      reached = Math.max(reached, dot(vector, v) / (length * (lengths[i] ?? 1)));
    });
  }
  if (reached === -Infinity) return [];
  const least = leastSimilarity(best, { noise: reached, margin, keep, relatedZ: 0 });
  return own.filter(({ similarity }) => similarity >= least).map(({ hit }) => hit);
}
