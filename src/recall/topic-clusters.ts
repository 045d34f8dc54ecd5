import { deu, eng, fra, ita, nld, por, spa } from 'stopword';
/**
 * The topic map's two steps, on plain data: k-means (cosine, k-means++ seeding, a fixed seed so
 * the same history gives the same map) over conversation vectors, and each cluster's name from
 * the words of its titles that are frequent in it and rare elsewhere (TF-IDF, the clusters as
 * the documents).
 */

/** A small seeded generator (mulberry32): reproducible seeding without Math.random. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The vector scaled to length 1 (a zero vector stays zero). */
export function unit(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  return norm === 0 ? vector : vector.map((v) => v / norm);
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i] ?? 0) * (b[i] ?? 0);
  return sum;
}

function nearest(vector: Float32Array, centroids: Float32Array[]): [number, number] {
  let best = 0;
  let score = -Infinity;
  centroids.forEach((c, i) => {
    const s = dot(vector, c);
    if (s > score) [best, score] = [i, s];
  });
  return [best, score];
}

// k-means++: each next centre drawn with odds growing with its distance from the chosen ones.
function seedCentroids(vectors: Float32Array[], k: number, next: () => number): Float32Array[] {
  const first = vectors[Math.floor(next() * vectors.length)] ?? new Float32Array();
  const centroids = [first];
  while (centroids.length < k) {
    const gaps = vectors.map((v) => Math.max(0, 1 - nearest(v, centroids)[1]));
    const total = gaps.reduce((a, b) => a + b, 0);
    if (total === 0) break;
    let pick = next() * total;
    let at = 0;
    while (at < gaps.length - 1 && pick > (gaps[at] ?? 0)) pick -= gaps[at++] ?? 0;
    centroids.push(vectors[at] ?? first);
  }
  return centroids;
}

/** Options of {@link kMeans}. */
export interface KMeansOptions {
  k: number;
  seed?: number;
  iterations?: number;
  /** Centres are fitted on at most this many vectors (1,500; drawn evenly), then all assigned. */
  sample?: number;
}

/** Each vector's cluster (0 … k-1) and the clusters' centres (unit vectors). */
export function kMeans(
  input: readonly Float32Array[],
  options: KMeansOptions,
): { assignment: number[]; centroids: Float32Array[] } {
  const vectors = input.map(unit);
  if (vectors.length === 0) return { assignment: [], centroids: [] };
  const k = Math.max(1, Math.min(options.k, vectors.length));
  const step = Math.max(1, Math.ceil(vectors.length / (options.sample ?? 1500)));
  const fit = vectors.filter((_, i) => i % step === 0);
  let centroids = seedCentroids(fit, k, random(options.seed ?? 1));
  for (let round = 0; round < (options.iterations ?? 25); round++) {
    const dims = centroids[0]?.length ?? 0;
    const sums = centroids.map(() => new Float32Array(dims));
    const sizes = centroids.map(() => 0);
    fit.forEach((v) => {
      const [c] = nearest(v, centroids);
      const sum = sums[c] ?? new Float32Array(dims);
      for (let i = 0; i < dims; i++) sum[i] = (sum[i] ?? 0) + (v[i] ?? 0);
      sizes[c] = (sizes[c] ?? 0) + 1;
    });
    const next = sums.map((sum, c) => ((sizes[c] ?? 0) > 0 ? unit(sum) : (centroids[c] ?? sum)));
    const moved = next.some((c, i) => dot(c, centroids[i] ?? c) < 0.999999);
    centroids = next;
    if (!moved) break;
  }
  return { assignment: vectors.map((v) => nearest(v, centroids)[0]), centroids };
}

/** A sensible number of clusters for n conversations: about √(n/2), 2 to 12. */
export function clusterCount(n: number): number {
  return Math.max(1, Math.min(12, n < 4 ? 1 : Math.round(Math.sqrt(n / 2))));
}

// Words that name no topic: the stop lists of the languages our users write most in (the
// `stopword` package's), and words of chat itself, common in every subject.
const CHAT_WORDS = `add also best case change changes code different does done doesn't don't
  each even example fine first fits following get getting give good help here hours idea ideas
  instead it's keep know let like look lot make makes many may more most much need new next
  note one option options really right same see should simple some something still sure take
  than thanks then there these thing things think time try two use used uses using vs want way
  well what which will work works would yes your`.split(/\s+/);
const STOP = new Set([
  ...[eng, fra, deu, spa, por, ita, nld].flat().map((w) => w.toLowerCase()),
  ...CHAT_WORDS,
]);

/** The words of a text worth naming a topic by: lower case, three letters or more. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}[\p{L}\p{N}'’-]{2,}/gu) ?? []).filter((w) => !STOP.has(w));
}

/** A conversation as the topic namer reads it: its title, and some of its text. */
export interface NamedText {
  title: string;
  text?: string;
}

/**
 * Each cluster's most distinctive words (class-based TF-IDF): a word scores the share of the
 * cluster's conversations that hold it, times log(conversations / conversations holding it) over
 * the whole history, doubled where it is in their titles; a word more common outside the cluster
 * than in it is left out. So a word of chat in general ("add", "work") ranks below one of the
 * cluster's subject, even in a history of few clusters.
 */
export function distinctiveWords(
  docs: readonly NamedText[],
  assignment: readonly number[],
  k: number,
  top = 3,
): string[][] {
  const inCluster = Array.from({ length: k }, () => new Map<string, number>());
  const inTitles = Array.from({ length: k }, () => new Map<string, number>());
  const sizes = new Array<number>(k).fill(0);
  const spread = new Map<string, number>();
  docs.forEach((doc, i) => {
    const c = assignment[i] ?? 0;
    sizes[c] = (sizes[c] ?? 0) + 1;
    const title = new Set(words(doc.title));
    const all = new Set([...title, ...words(doc.text ?? '')]);
    const held = inCluster[c];
    const titled = inTitles[c];
    for (const w of all) {
      held?.set(w, (held.get(w) ?? 0) + 1);
      spread.set(w, (spread.get(w) ?? 0) + 1);
    }
    for (const w of title) titled?.set(w, (titled.get(w) ?? 0) + 1);
  });
  const n = docs.length;
  return inCluster.map((counts, c) => {
    const size = Math.max(1, sizes[c] ?? 1);
    return (
      [...counts.entries()]
        // A word of one conversation only says little about a cluster of many.
        .filter(([, held]) => held > 1 || size < 3)
        .filter(([w, held]) => {
          const outside = (spread.get(w) ?? held) - held;
          return held / size > outside / Math.max(1, n - size);
        })
        .map(([w, held]): [string, number] => [
          w,
          ((held + (inTitles[c]?.get(w) ?? 0)) / size) * Math.log((n + 1) / (spread.get(w) ?? 1)),
        ])
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, top)
        .map(([w]) => w)
    );
  });
}
