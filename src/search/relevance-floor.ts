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
 * Floors measured per model on the labelled set (bench/recall-quality, 68 paraphrased queries):
 * with all-MiniLM-L6-v2 the lowest similarity of a target among the first three conversations
 * was 0.257 and the lowest ratio to the search's best 0.715, while words it does not know
 * ("panneaux solaires", "zorblaxian quuxification", "the") scored 0.19–0.25 against everything.
 */
const MEASURED: Record<string, RelevanceFloor> = {
  'all-minilm-l6-v2': { absolute: 0.24, relative: 0.7 },
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
