import type { SearchHit } from '../stores/store.js';
import type { VectorHit } from '../stores/vector-index.js';
import { closeInMeaning, type MeaningTest } from '../search/meaning-cutoff.js';
import type { CentredQuery } from './language-centring.js';
import { aboveLetters, type LetterReference } from './letter-noise.js';

// How a query's hits by meaning are judged: by its noise level, centred by language or plain,
// and by the shuffles of its letters (issue 43).

/** How the matches of a query's vector are judged (its noise level, its model's cutoff). */
export type MeaningJudge = (vector: Float32Array) => Promise<MeaningTest>;

/**
 * Centres a query on its language and judges its hits in centred space, for a model that
 * searches so (see `language-centring.ts`); undefined for the others.
 */
export type QueryCentring = (
  text: string,
  vector: Float32Array,
) => Promise<
  { centred: CentredQuery; test: MeaningTest; plainMargin: number; pairWeight: number } | undefined
>;

/**
 * The vectors a query's hits are also compared with (shuffles of its letters: `letter-noise.ts`),
 * for a model calibrated so; undefined for the others.
 */
export type QueryLetters = (text: string) => Promise<LetterReference | undefined>;

/**
 * Hits whose plain similarity stands the reference's margin above the best its vectors reach
 * among the same passages: shown whatever the noise level says (their keys go in `passes`).
 */
export interface LetterMeaning {
  reference: LetterReference;
  passes: Set<string>;
}

/** A search centred by language: the query, the plain test, the hits that pass it. */
export interface CentredMeaning {
  query: CentredQuery;
  /** The model's test of uncentred similarities (its noise level, its plain cutoff). */
  plain: MeaningTest;
  /** Keys of hits whose uncentred similarity passes {@link plain}: shown whatever centring says. */
  passes: Set<string>;
  /** How much of its language pair's term a hit's plain similarity loses when ranked. */
  pairWeight: number;
}

/** The key {@link hitKey} gives the hit a vector hit becomes. */
export function vectorHitKey(
  hit: Pick<VectorHit, 'kind' | 'nodeId' | 'owner' | 'messageId'>,
): string {
  if (hit.kind === 'attachment') return `a:${hit.nodeId}`;
  if (hit.kind === 'title' || hit.messageId === null) return `t:${hit.owner}`;
  return `m:${hit.messageId}`;
}

/** What identifies one hit across keyword and vector results. */
export function hitKey(hit: SearchHit): string {
  if (hit.memory) return `k:${hit.memory.id}`;
  if (hit.attachment) return `a:${hit.attachment.id}`;
  if (hit.kind === 'title' || hit.messageId === '') return `t:${hit.conversationId}`;
  return `m:${hit.messageId}`;
}

/** Adds to `letters.passes` the hits the letter test shows (see {@link aboveLetters}). */
export function judgeByLetters(
  found: readonly VectorHit[],
  vector: Float32Array,
  letters: LetterMeaning,
): void {
  for (const hit of aboveLetters(found, vector, letters.reference))
    letters.passes.add(vectorHitKey(hit));
}

/** How a query's hits by meaning are scored and judged: centred by language, or plain. */
export interface MeaningSpace {
  centred?: CentredMeaning;
  letters?: LetterMeaning | undefined;
  test: () => Promise<MeaningTest>;
  close: typeof closeInMeaning;
}

/**
 * A hit is shown when it passes the centred test or the plain one: centring finds what is about
 * the question across languages, and its test alone lost targets the plain one keeps.
 */
export async function meaningSpace(
  text: string,
  vector: Float32Array,
  judge: MeaningJudge,
  centre: QueryCentring | undefined,
  lettersOf?: QueryLetters,
): Promise<MeaningSpace> {
  const [centred, reference] = await Promise.all([
    centre ? centre(text, vector) : undefined,
    lettersOf ? lettersOf(text) : undefined,
  ]);
  const letters: LetterMeaning | undefined = reference && { reference, passes: new Set() };
  // A hit the letter test passes is shown whatever the noise level says.
  const withLetters =
    (close: typeof closeInMeaning): typeof closeInMeaning =>
    (hits, test) => {
      if (!letters) return close(hits, test);
      const kept = new Set(close(hits, test).hits);
      const shown = hits.filter((hit) => kept.has(hit) || letters.passes.has(hitKey(hit)));
      return { hits: shown, below: hits.length - shown.length };
    };
  if (!centred) return { letters, test: () => judge(vector), close: withLetters(closeInMeaning) };
  const meaning: CentredMeaning = {
    query: centred.centred,
    plain: await judge(vector).then((test) => ({
      ...test,
      margin: Math.max(test.margin, centred.plainMargin),
    })),
    passes: new Set(),
    pairWeight: centred.pairWeight,
  };
  return {
    centred: meaning,
    letters,
    test: () => Promise.resolve(centred.test),
    close: withLetters((hits, test) => {
      const judged = closeInMeaning(hits, test);
      const kept = new Set(judged.hits);
      const shown = hits.filter((hit) => kept.has(hit) || meaning.passes.has(hitKey(hit)));
      return { hits: shown, below: hits.length - shown.length };
    }),
  };
}
