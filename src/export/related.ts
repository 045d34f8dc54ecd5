import type { Store } from '../stores/store.js';

/** How many related conversations a note lists, and how close they must be (cosine). */
const NEIGHBOURS = 5;
const FLOOR = 0.5;
/** The most conversation vectors read: a pairwise scan, kept to what stays quick. */
const CAP = 5000;

/**
 * The conversations close in meaning to each exported one (the means of their vectors), by id;
 * empty when the store holds no vectors (nothing is embedded), so the notes have no Related.
 */
export async function relatedConversations(
  store: Pick<Store, 'vectors'>,
  exported: ReadonlySet<string>,
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
    const scored: { owner: string; score: number }[] = [];
    for (const b of unit) {
      if (a.owner === b.owner) continue;
      let dot = 0;
      for (let i = 0; i < a.vector.length; i++) dot += (a.vector[i] ?? 0) * (b.vector[i] ?? 0);
      if (dot >= FLOOR) scored.push({ owner: b.owner, score: dot });
    }
    scored.sort((x, y) => y.score - x.score || (x.owner < y.owner ? -1 : 1));
    if (scored.length > 0)
      related.set(
        a.owner,
        scored.slice(0, NEIGHBOURS).map((s) => s.owner),
      );
  }
  return related;
}
