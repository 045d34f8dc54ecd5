import type { Store } from '../stores/store.js';
import { standingOut, type MeaningCutoff } from '../search/meaning-cutoff.js';

/** How many related conversations a note lists at most. */
const NEIGHBOURS = 5;
/** The most conversation vectors read: a pairwise scan, kept to what stays quick. */
const CAP = 5000;

/**
 * The conversations close in meaning to each exported one (the means of their vectors), by id:
 * those standing `cutoff.relatedZ` standard deviations above the note's own similarities to
 * every other conversation (a floor of cosine 0.5 linked every note to five others with the
 * multilingual model, whose similarities all lie between 0.8 and 0.9); empty when the store
 * holds no vectors (nothing is embedded), so the notes have no Related.
 */
export async function relatedConversations(
  store: Pick<Store, 'vectors'>,
  exported: ReadonlySet<string>,
  cutoff: MeaningCutoff,
): Promise<Map<string, string[]>> {
  const related = new Map<string, string[]>();
  const vectors = (await store.vectors.conversationVectors(CAP)).filter((v) =>
    exported.has(v.owner),
  );
  const unit = vectors.map((v) => {
    let norm = 0;
    for (const x of v.vector) norm += x * x;
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    return { owner: v.owner, vector: v.vector.map((x) => x * scale) };
  });
  for (const a of unit) {
    const others = unit.filter((b) => b.owner !== a.owner);
    const similarities = others.map((b) => {
      let dot = 0;
      for (let i = 0; i < a.vector.length; i++) dot += (a.vector[i] ?? 0) * (b.vector[i] ?? 0);
      return dot;
    });
    const near = standingOut(similarities, cutoff.relatedZ).slice(0, NEIGHBOURS);
    if (near.length > 0)
      related.set(
        a.owner,
        near.map((i) => others[i]?.owner ?? ''),
      );
  }
  return related;
}
