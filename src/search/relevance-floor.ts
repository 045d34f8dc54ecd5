import type { SearchHit } from '../stores/search-hit.js';

/**
 * How close in meaning (cosine) a hit found by meaning only must be to be shown: at least
 * `absolute`, and at least `relative` times the best similarity of the search.
 */
export interface RelevanceFloor {
  absolute: number;
  relative: number;
}

/**
 * Floors measured per model on the labelled sets (`node bench/recall-quality.mjs --library
 * --floors`: 68 English and 32 non-English paraphrased questions, and 8 questions nothing in the
 * sets answers). Each stays below the lowest similarity of a target found among the first three
 * conversations and below its lowest ratio to the search's best, so it costs no labelled hit.
 * - all-MiniLM-L6-v2: targets at 0.300 and above, 0.836 of the best and above (0.257 and 0.715
 *   on the English set alone, which set this floor); unanswerable questions scored 0.21–0.55.
 *   It shows 5.7 conversations per labelled answer where the nearest 100 passages hold 45.8.
 * - multilingual-e5-small (`query: ` before every text): its similarities crowd between 0.8 and
 *   0.9, targets at 0.817 and above, but within 0.980 of the best; unanswerable questions scored
 *   0.82–0.85, above the lowest target, so no absolute floor tells them apart: the relative
 *   floor does the work (6.4 conversations per labelled answer instead of 54.8; at 0.98 one
 *   labelled hit is lost).
 */
const MEASURED: Record<string, RelevanceFloor> = {
  'all-minilm-l6-v2': { absolute: 0.24, relative: 0.7 },
  'multilingual-e5-small': { absolute: 0.8, relative: 0.97 },
};

/** For a model never measured: only the relative floor (its scale of similarities is unknown). */
const UNMEASURED: RelevanceFloor = { absolute: 0, relative: 0.7 };

/** The floor for the model a store's vectors come from (its catalog id, any case). */
export function relevanceFloor(model: string | undefined): RelevanceFloor {
  return (model !== undefined ? MEASURED[model.toLowerCase()] : undefined) ?? UNMEASURED;
}

/**
 * Ranked hits without those matched by meaning only and below the floor (hits matched by words
 * always stay), and how many were left out.
 */
export function aboveFloor(
  hits: readonly SearchHit[],
  floor: RelevanceFloor,
): { hits: SearchHit[]; below: number } {
  let best = -Infinity;
  for (const hit of hits) best = Math.max(best, hit.why?.semantic?.similarity ?? -Infinity);
  const least = Math.max(floor.absolute, best * floor.relative);
  const kept = hits.filter(
    (hit) =>
      hit.why?.keyword !== undefined || (hit.why?.semantic?.similarity ?? -Infinity) >= least,
  );
  return { hits: kept, below: hits.length - kept.length };
}
