import type { GraphQueries, VectorHolder } from '../stores/store.js';
import type { ConversationVector } from '../stores/vector-index.js';
import { MIN_OTHERS, standingOut } from '../search/meaning-cutoff.js';
import { meaningCutoffOf } from '../embed/model-catalog.js';
import { clusterCount, distinctiveWords, kMeans, unit, type NamedText } from './topic-clusters.js';
import { dot } from '../search/similarity.js';

/**
 * One topic: its name (its most distinctive words), the conversation nearest its centre (whose
 * title says in a person's words what the topic is), its size and its conversations nearest its
 * centre first.
 */
export interface TopicCluster {
  id: number;
  name: string;
  words: string[];
  size: number;
  conversations: { id: string; title: string; source: string }[];
  /** The conversation most central to the topic (nearest its centre), the first listed. */
  central: { id: string; title: string } | null;
  /** The cluster whose centre is nearest this one's, and how near (cosine). */
  nearest: { id: number; similarity: number } | null;
}

/** The map of topics of an embedded history. */
export interface TopicMap {
  /** False when the store holds no vectors: then there is nothing to cluster. */
  embedded: boolean;
  model: string | null;
  /** The conversations clustered, and whether the cap left some out. */
  conversations: number;
  capped: boolean;
  clusters: TopicCluster[];
  milliseconds: number;
}

/** Options of {@link buildTopicMap}. */
export interface TopicMapOptions {
  /** The most conversations clustered (the latest ones); 20,000 unless given. */
  cap?: number;
  /** The most conversations listed a cluster; 100 unless given. */
  listed?: number;
  /** The number of clusters; about √(n/2) unless given. */
  k?: number;
  /**
   * How many standard deviations a topic's nearest topic must stand above the centre's
   * similarities to all the other centres to be named (the model's calibrated `relatedZ`).
   */
  relatedZ?: number;
}

const DEFAULT_CAP = 20_000;
const NAMING_SAMPLE = 30;

// Each cluster renamed from the titles and texts of its listed conversations.
function nameFromTexts(clusters: TopicCluster[], texts: Map<string, string>): TopicCluster[] {
  const docs: NamedText[] = [];
  const assignment: number[] = [];
  clusters.forEach((cluster, i) => {
    cluster.conversations.slice(0, NAMING_SAMPLE).forEach((c, rank) => {
      // Nearest the centre first: the first few say what the cluster is about.
      docs.push({ title: c.title, text: texts.get(c.id) ?? '', weight: 1 / (1 + rank / 4) });
      assignment.push(i);
    });
  });
  const names = distinctiveWords(docs, assignment, clusters.length);
  return clusters.map((cluster, i) => {
    const words = names[i] ?? [];
    return words.length > 0 ? { ...cluster, words, name: words.join(' · ') } : cluster;
  });
}

/** The words a conversation is known by: its title, and some of its text when given. */
export type TopicText = (v: ConversationVector) => string;

/** The clusters of conversation vectors, named (by their titles, or `text`), biggest first. */
export function clusterConversations(
  vectors: readonly ConversationVector[],
  options: TopicMapOptions = {},
  text: TopicText = (v) => v.title,
): TopicCluster[] {
  if (vectors.length === 0) return [];
  const k = options.k ?? clusterCount(vectors.length);
  const { assignment, centroids } = kMeans(
    vectors.map((v) => v.vector),
    { k },
  );
  const names = distinctiveWords(
    vectors.map((v) => ({ title: text(v) })),
    assignment,
    centroids.length,
  );
  const members = centroids.map(() => [] as { v: ConversationVector; score: number }[]);
  vectors.forEach((v, i) => {
    const c = assignment[i] ?? 0;
    members[c]?.push({ v, score: dot(unit(v.vector), centroids[c] ?? v.vector) });
  });
  const clusters = centroids.map((centre, c): TopicCluster => {
    let nearest: { id: number; similarity: number } | null = null;
    for (const [o, other] of centroids.entries()) {
      const similarity = dot(centre, other);
      if (o !== c && (nearest === null || similarity > nearest.similarity))
        nearest = { id: o, similarity };
    }
    // Named only when it stands out among the other centres, as Related does for notes (a map
    // of fewer topics than that keeps its nearest: there is no spread to judge by).
    const others = centroids.filter((_, o) => o !== c).map((other) => dot(centre, other));
    if (
      options.relatedZ !== undefined &&
      others.length >= MIN_OTHERS &&
      standingOut(others, options.relatedZ).length === 0
    )
      nearest = null;
    const words = names[c] ?? [];
    const listed = (members[c] ?? []).sort((a, b) => b.score - a.score);
    const first = listed[0]?.v;
    return {
      id: c,
      name: words.length > 0 ? words.join(' · ') : `Topic ${String(c + 1)}`,
      words,
      size: listed.length,
      conversations: listed
        .slice(0, options.listed ?? 100)
        .map(({ v }) => ({ id: v.owner, title: v.title, source: v.source })),
      central: first ? { id: first.owner, title: first.title } : null,
      nearest,
    };
  });
  return clusters.filter((c) => c.size > 0).sort((a, b) => b.size - a.size || a.id - b.id);
}

/** The topic map of a store: its latest conversations (up to the cap) clustered by meaning. */
export async function buildTopicMap(
  store: Pick<GraphQueries, 'stats'> & VectorHolder,
  options: TopicMapOptions = {},
): Promise<TopicMap> {
  const started = performance.now();
  const model = await store.vectors.model();
  if (!model || model.count === 0)
    return {
      embedded: false,
      model: null,
      conversations: 0,
      capped: false,
      clusters: [],
      milliseconds: 0,
    };
  const cap = options.cap ?? DEFAULT_CAP;
  const vectors = await store.vectors.conversationVectors(cap + 1);
  const capped = vectors.length > cap;
  const kept = vectors.slice(0, cap);
  const clusters = clusterConversations(kept, {
    relatedZ: meaningCutoffOf(model.id).relatedZ,
    ...options,
  });
  // Named again from their text: the titles and the first words of the conversations nearest
  // each centre (a few dozen a cluster, so the store is asked a few hundred times at most).
  const texts = new Map<string, string>();
  for (const cluster of clusters)
    for (const c of cluster.conversations.slice(0, NAMING_SAMPLE)) {
      const parts = await store.vectors.texts(c.id);
      texts.set(
        c.id,
        parts
          .map((p) => p.text)
          .join(' ')
          .slice(0, 3000),
      );
    }
  const named = nameFromTexts(clusters, texts);
  return {
    embedded: true,
    model: model.id,
    conversations: kept.length,
    capped,
    clusters: named,
    milliseconds: Math.round(performance.now() - started),
  };
}
