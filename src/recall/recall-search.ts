import {
  QueryError,
  type SearchHit,
  type SearchMode,
  type SearchQuery,
  type SearchResult,
  type ConversationReader,
  type GraphQueries,
  type MemoryHolder,
  type VectorHolder,
} from '../stores/store.js';
import type { VectorQuery } from '../stores/vector-index.js';
import {
  closeInMeaning,
  leastSimilarity,
  NO_TEST,
  type MeaningTest,
} from '../search/meaning-cutoff.js';
import { leftToWords } from './outside-language.js';
import { rankWithGists } from './gist-ranking.js';
import {
  hitKey,
  judgeByLetters,
  meaningSpace,
  vectorHitKey,
  type MeaningJudge,
  type MeaningSpace,
  type QueryCentring,
  type QueryLetters,
} from './meaning-space.js';
import { dot } from '../search/similarity.js';

/** What a search in every mode reads of a store (and a shell's reader cannot write). */
export type RecallStore = Pick<ConversationReader, 'conversation' | 'thread'> &
  Pick<GraphQueries, 'search'> &
  VectorHolder &
  MemoryHolder;

/** Turns a query's text into a vector of the index's model. */
export type QueryEmbedding = (text: string) => Promise<Float32Array>;

export type { MeaningJudge, QueryCentring, QueryLetters } from './meaning-space.js';

/**
 * Passages a centred search scores at least: centring reorders the nearest passages by their
 * languages' terms, so it re-scores more than the page asks for.
 */
const CENTRED_DEPTH = 100;

/** Reciprocal rank fusion's constant (the usual 60: ranks matter, scores' scales do not). */
const RRF_K = 60;
/** Extra hits each side brings to the fusion beyond the page asked for. */
const FUSION_DEPTH = 50;

/**
 * How many vectors a store holds: its messages' and its memories' (a reindex restores the
 * memories' from the bundle at once; the messages' come back with `chatgraph embed`).
 */
async function vectorCount(
  store: VectorHolder & MemoryHolder,
): Promise<{ messages: number; all: number; model: string | undefined }> {
  // Asked at once: on Neo4j each is a round trip to the server.
  const [model, memoryModel] = await Promise.all([
    store.vectors.model(),
    store.memories.vectorModel(),
  ]);
  const messages = model?.count ?? 0;
  return { messages, all: messages + (memoryModel?.count ?? 0), model: model?.id };
}

/** The mode a search runs in: the one asked for, else hybrid once vectors exist. */
export async function searchModeFor(
  store: VectorHolder & MemoryHolder,
  asked: SearchMode | undefined,
  canEmbed: boolean,
): Promise<SearchMode> {
  if (asked !== undefined) return asked;
  return (await vectorCount(store)).all > 0 && canEmbed ? 'hybrid' : 'keyword';
}

function vectorQueryOf(query: SearchQuery, vector: Float32Array, limit: number): VectorQuery {
  return {
    vector,
    limit,
    offset: 0,
    source: query.source,
    role: query.role,
    since: query.since,
    until: query.until,
  };
}

async function semanticHits(
  store: VectorHolder,
  query: SearchQuery,
  vector: Float32Array,
  limit: number,
  { centred, letters }: Pick<MeaningSpace, 'centred' | 'letters'> = {},
): Promise<SearchHit[]> {
  if (centred) {
    // Searched with the centred query, each hit scored in centred space (what the cutoff
    // judges) and ranked by its plain similarity less its language pair's term.
    const found = await store.vectors.search({
      ...vectorQueryOf(query, centred.query.vector, Math.max(limit, CENTRED_DEPTH)),
      withVectors: true,
    });
    // A hit whose own (uncentred) similarity passes the model's plain test stays too.
    let bestRaw = -Infinity;
    const raw = new Map<string, number>();
    for (const hit of found)
      if (hit.vector) {
        const similarity = dot(hit.vector, vector);
        raw.set(hit.nodeId, similarity);
        bestRaw = Math.max(bestRaw, similarity);
      }
    const leastRaw = leastSimilarity(bestRaw, centred.plain);
    if (letters) judgeByLetters(found, vector, letters);
    // Each hit's centred similarity, by the key of the hit it becomes; its rank: the plain
    // similarity less the language pair's term where the store gave the vectors, else (Neo4j,
    // which sends none back) the centred similarity.
    const similarityOf = new Map<string, number>();
    const hits = found
      .map((hit) => {
        const similarity = centred.query.score(hit);
        const key = vectorHitKey(hit);
        similarityOf.set(key, similarity);
        const plain = raw.get(hit.nodeId);
        if (plain !== undefined && plain >= leastRaw) centred.passes.add(key);
        const rank =
          plain === undefined
            ? similarity
            : plain - centred.pairWeight * centred.query.languagePair(hit.owner);
        return { ...hit, similarity: rank, vector: undefined };
      })
      .sort((a, b) => b.similarity - a.similarity);
    const described = await store.vectors.describe(hits);
    return rankWithGists(described)
      .slice(0, limit)
      .map((hit, i) => {
        const similarity = similarityOf.get(hitKey(hit)) ?? hit.score;
        return { ...hit, score: similarity, why: { semantic: { rank: i + 1, similarity } } };
      });
  }
  // With a letter test, the nearest hundred (with their vectors) are what it is judged among,
  // as a centred search's are; the page is the first of them.
  const found = await store.vectors.search({
    ...vectorQueryOf(query, vector, letters ? Math.max(limit, CENTRED_DEPTH) : limit),
    ...(letters ? { withVectors: true } : {}),
  });
  if (letters) judgeByLetters(found, vector, letters);
  const hits = found.slice(0, limit).map((hit) => ({ ...hit, vector: undefined }));
  const described = await store.vectors.describe(hits);
  return rankWithGists(described).map((hit, i) => ({
    ...hit,
    why: { semantic: { rank: i + 1, similarity: hit.score } },
  }));
}

/** Keyword and vector rankings merged by reciprocal rank fusion. */
export function fuseRankings(
  keyword: readonly SearchHit[],
  semantic: readonly SearchHit[],
): SearchHit[] {
  const fused = new Map<string, SearchHit & { fusion: number }>();
  keyword.forEach((hit, i) => {
    fused.set(hitKey(hit), {
      ...hit,
      why: { keyword: { rank: i + 1 } },
      fusion: 1 / (RRF_K + i + 1),
    });
  });
  semantic.forEach((hit, i) => {
    const key = hitKey(hit);
    const similarity = hit.why?.semantic?.similarity ?? hit.score;
    const seen = fused.get(key);
    if (seen) {
      seen.fusion += 1 / (RRF_K + i + 1);
      seen.why = { ...seen.why, semantic: { rank: i + 1, similarity } };
    } else
      fused.set(key, {
        ...hit,
        why: { semantic: { rank: i + 1, similarity } },
        fusion: 1 / (RRF_K + i + 1),
      });
  });
  return [...fused.values()]
    .sort((a, b) => b.fusion - a.fusion)
    .map(({ fusion, ...hit }) => ({ ...hit, score: fusion }));
}

// The keyword half of a search by meaning: its words' matches, counts and "did you mean", or
// none when the words are ones it cannot take (only very common ones, say).
function keywordHalf(
  store: Pick<GraphQueries, 'search'>,
  query: SearchQuery,
  limit: number,
): Promise<SearchResult | undefined> {
  // Fused with the hits by meaning, a conversation's best row may be any of its rows here.
  const { snippetsPerConversation: _all, ...asked } = query;
  return store.search({ ...asked, mode: 'keyword', offset: 0, limit }).catch((error: unknown) => {
    if (error instanceof QueryError) return undefined;
    throw error;
  });
}

/**
 * A search by words that matched nothing: the three nearest hits in meaning that pass the cutoff,
 * or undefined when the query does not embed (a search by words does not fail for want of a model).
 */
async function nearestInMeaning(
  store: VectorHolder,
  query: SearchQuery,
  embedQuery: QueryEmbedding,
  centring: (vector: Float32Array) => Promise<MeaningSpace>,
): Promise<SearchHit[] | undefined> {
  let vector: Float32Array;
  try {
    vector = await embedQuery(query.text);
  } catch {
    return undefined;
  }
  const space = await centring(vector);
  return space.close(await semanticHits(store, query, vector, 3, space), await space.test()).hits;
}

/**
 * Searches by words, by meaning, or both (hybrid: the two rankings fused), with the same
 * filters and paging in every mode. Without vectors (or a way to embed the query) the search is
 * by words; a semantic search then says what is missing. Hits found by meaning only are shown
 * when `judge` finds them close enough (see `search/meaning-cutoff.ts`); without it, all are.
 */
export async function recall(
  store: Pick<GraphQueries, 'search'> & VectorHolder & MemoryHolder,
  query: SearchQuery,
  embedQuery?: QueryEmbedding,
  judge: MeaningJudge = () => Promise.resolve(NO_TEST),
  centre?: QueryCentring,
  letters?: QueryLetters,
): Promise<SearchResult> {
  // The query's test: in centred space when the model centres by language.
  const centring = (vector: Float32Array): Promise<MeaningSpace> =>
    meaningSpace(query.text, vector, judge, centre, letters);
  const mode = await searchModeFor(store, query.mode, embedQuery !== undefined);
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 20;
  if (mode === 'keyword') {
    const result = await store.search({ ...query, mode });
    const hits = result.hits.map((hit, i) => ({
      ...hit,
      why: hit.why ?? { keyword: { rank: offset + i + 1 } },
    }));
    if (hits.length > 0 || offset > 0 || !embedQuery) return { ...result, hits, mode, offset };
    const model = await store.vectors.model();
    if (!model || model.count === 0) return { ...result, hits, mode, offset };
    // Nothing has the words: say what is nearest in meaning instead, when anything is (and the
    // model opens: a search by words does not fail for want of one).
    const nearest = await nearestInMeaning(store, query, embedQuery, centring);
    if (!nearest) return { ...result, hits, mode, offset };
    return { ...result, hits, mode, offset, nearest };
  }
  const count = await vectorCount(store);
  if (count.all === 0)
    throw new QueryError(
      `there are no vectors to search by meaning yet: run \`chatgraph embed\` first (or search by words only: mode keyword)`,
    );
  if (!embedQuery) throw new QueryError(`a ${mode} search needs an embedding model`);
  const vector = await embedQuery(query.text);
  const space = await centring(vector);
  const { test: judged, close } = space;
  // Only memories have vectors (a reindex, before the next embed): no message is near.
  const nearest = (limit_: number): Promise<SearchHit[]> =>
    count.messages > 0 ? semanticHits(store, query, vector, limit_, space) : Promise.resolve([]);
  // Nearest neighbours always exist: those far in meaning are left out, not shown as padding.
  if (mode === 'semantic') {
    // The words are looked up too, for a "did you mean" when nothing holds them.
    const [found, words, test] = await Promise.all([
      nearest(offset + limit),
      keywordHalf(store, query, 1),
      judged(),
    ]);
    const { hits, below } = close(found, test);
    return {
      hits: hits.slice(offset),
      matches: hits.length,
      matchesCapped: false,
      ranked: count.messages,
      mode,
      offset,
      ...meaningJudged(test, below),
      ...(words?.hint !== undefined ? { hint: words.hint } : {}),
    };
  }
  const depth = offset + limit + FUSION_DEPTH;
  const [keyword, semantic, test] = await Promise.all([
    keywordHalf(store, query, Math.min(depth, 100)),
    nearest(depth),
    judged(),
  ]);
  // A question left to its words (outside-language.ts) is ranked by them alone: fused, its hits
  // kept their rank and similarity by meaning and were labelled "words + meaning".
  const fused = leftToWords(test)
    ? { hits: keyword?.hits ?? [], below: 0 }
    : close(fuseRankings(keyword?.hits ?? [], semantic), test);
  return {
    hits: fused.hits.slice(offset, offset + limit),
    ...meaningJudged(test, fused.below),
    conversationCount: keyword?.conversationCount ?? 0,
    matches: keyword?.matches ?? 0,
    matchesCapped: keyword?.matchesCapped ?? false,
    ranked: keyword?.ranked ?? 0,
    mode,
    offset,
    ...(keyword?.hint !== undefined ? { hint: keyword.hint } : {}),
  };
}

/**
 * Messages close in meaning to one message (the web app's "similar messages"), judged as a
 * search's hits are: those that do not stand out from the message's noise level are left out.
 */
export async function similarMessages(
  store: VectorHolder,
  messageId: string,
  limit: number,
  judge: MeaningJudge = () => Promise.resolve(NO_TEST),
): Promise<SearchHit[]> {
  const vector = await store.vectors.vectorOf(messageId);
  if (!vector) return [];
  const [hits, test] = await Promise.all([
    store.vectors.search({ vector, limit, exclude: messageId }),
    judge(vector),
  ]);
  const described = await store.vectors.describe(hits);
  return closeInMeaning(
    described.map((hit, i) => ({
      ...hit,
      why: { semantic: { rank: i + 1, similarity: hit.score } },
    })),
    test,
  ).hits;
}

// How many hits by meaning were too far to show, or that none was judged (the question left to
// its words).
function meaningJudged(
  test: MeaningTest,
  below: number,
): { belowFloor: number } | { byWordsOnly: true } {
  return leftToWords(test) ? { byWordsOnly: true } : { belowFloor: below };
}
