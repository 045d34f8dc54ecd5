import type { SearchHit } from '../stores/search-hit.js';

/**
 * How much a conversation's gist (its title, first questions and the start of its long answers,
 * one vector) weighs beside a passage's own similarity when passages are ranked by meaning.
 * Measured with `node bench/recall-quality.mjs --library` (first three conversations, no
 * cutoff, multilingual-e5-small): 0 finds 37 of the 60 cross-language questions, 0.25 finds 41,
 * 0.5 40, 1 39; English 60, 62, 62, 60 of 68; all-minilm-l6-v2 65, 66, 65, 65 of 68 English.
 */
export const GIST_WEIGHT = 0.25;

/**
 * Passages ranked by their similarity plus {@link GIST_WEIGHT} times their conversation's gist's:
 * a passage of a conversation that is about the question as a whole outranks one that only
 * shares a sentence with it. A conversation whose gist is not among the hits gets the least
 * similarity among them (its gist is at most that near). The similarity shown and judged by the
 * cutoff stays the passage's own.
 */
export function rankWithGists(hits: readonly SearchHit[]): SearchHit[] {
  if (hits.length === 0) return [];
  let least = Infinity;
  const gist = new Map<string, number>();
  for (const hit of hits) {
    least = Math.min(least, hit.score);
    if (hit.kind === 'title' && !gist.has(hit.conversationId))
      gist.set(hit.conversationId, hit.score);
  }
  return hits
    .map((hit, i) => ({
      hit,
      i,
      rank: hit.score + GIST_WEIGHT * (gist.get(hit.conversationId) ?? least),
    }))
    .sort((a, b) => b.rank - a.rank || a.i - b.i)
    .map(({ hit }) => hit);
}
