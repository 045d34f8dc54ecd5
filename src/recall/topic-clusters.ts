import { deu, eng, fra, ita, nld, por, spa } from 'stopword';
import { dot } from '../search/similarity.js';
/**
 * The topic map's two steps, on plain data: k-means (cosine, k-means++ seeding, a fixed seed so
 * the same history gives the same map) over conversation vectors, and each cluster's name from
 * the words frequent in its conversations and rare in the rest (c-TF-IDF, each cluster's
 * conversations taken as one document).
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
const CHAT_WORDS = `add also around best case change changes code day days different does
  done doesn't don't each even example fine first fits following get getting give good help here
  hour hours idea ideas instead it's keep know let like look lot make makes many may minute
  minutes month months more most much need new next not note one option options really right
  same say says see should simple some something still sure take than thanks then there these
  thing things think three time times today try two use used uses using via vs want way week
  weeks well what which will work works would year years yes your
  big small hello hi bonjour salut merci hallo danke hola gracias olá obrigado obrigada ciao
  grazie après avant nouveau nouvelle
  deux trois quatre jour jours semaine zwei drei vier tag tage woche dos tres cuatro dia dias
  semana dois três quatro`.split(/\s+/);
const STOP = new Set([
  ...[eng, fra, deu, spa, por, ita, nld].flat().map((w) => w.toLowerCase()),
  ...CHAT_WORDS,
]);

// French and Italian elisions (l'appartement, c'est, dell'anno): the word is what follows.
const ELISION = /^(?:l|d|c|j|m|n|s|t|qu|dell|all|nell|sull|un)['’](?=\p{L})/u;

/** The words of a text worth naming a topic by: lower case, three letters or more. */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/\p{L}[\p{L}\p{N}'’-]{2,}/gu) ?? [])
    .map((w) => w.replace(ELISION, '').replace(/’/g, "'"))
    .filter((w) => w.length >= 3 && !STOP.has(w));
}

/** A conversation as the topic namer reads it: its title, some of its text, how central it is. */
export interface NamedText {
  title: string;
  text?: string;
  /**
   * How much the conversation speaks for its cluster (1 unless given): the conversations
   * nearest the centre are what the cluster is about; the far ones are what k-means had left.
   */
  weight?: number;
}

/**
 * Each cluster's most distinctive words by class-based TF-IDF (c-TF-IDF, as BERTopic names its
 * topics): a cluster's conversations are one document against the rest. A word's frequency in
 * it is the (weighted) share of the cluster's conversations that hold it, its title counting
 * as much again (a title is the conversation's own summary), so a long conversation does not
 * outweigh many short ones; times log(1 + A / f), A the mean size of a cluster and f the
 * conversations holding the word anywhere, so a word the rest uses as much ranks low. A word of
 * one conversation only says little about a cluster of several, and is left out.
 */
export function distinctiveWords(
  docs: readonly NamedText[],
  assignment: readonly number[],
  k: number,
  top = 3,
): string[][] {
  const scores = Array.from({ length: k }, () => new Map<string, number>());
  const holders = Array.from({ length: k }, () => new Map<string, number>());
  const weights = new Array<number>(k).fill(0);
  const sizes = new Array<number>(k).fill(0);
  const everywhere = new Map<string, number>();
  docs.forEach((doc, i) => {
    const c = assignment[i] ?? 0;
    const weight = doc.weight ?? 1;
    sizes[c] = (sizes[c] ?? 0) + 1;
    weights[c] = (weights[c] ?? 0) + weight;
    const titled = new Set(words(doc.title));
    const held = new Set([...titled, ...words(doc.text ?? '')]);
    const score = scores[c];
    const holding = holders[c];
    if (!score || !holding) return;
    for (const w of held) {
      score.set(w, (score.get(w) ?? 0) + weight * (titled.has(w) ? 2 : 1));
      holding.set(w, (holding.get(w) ?? 0) + 1);
      everywhere.set(w, (everywhere.get(w) ?? 0) + 1);
    }
  });
  const mean = Math.max(1, docs.length / Math.max(1, k));
  return scores.map((held, c) => {
    const total = Math.max(1e-9, weights[c] ?? 1);
    const several = (sizes[c] ?? 0) >= 3;
    return [...held.entries()]
      .filter(([w]) => !several || (holders[c]?.get(w) ?? 0) > 1)
      .map(([w, n]): [string, number] => [
        w,
        (n / total) * Math.log(1 + mean / (everywhere.get(w) ?? 1)),
      ])
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, top)
      .map(([w]) => w);
  });
}
