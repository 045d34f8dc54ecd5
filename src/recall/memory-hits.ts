import { fuseRankings } from './recall-search.js';
import { parseDateBound } from '../stores/date-bound.js';
import type { MemoryMatch } from '../stores/memory-index.js';
import type { MeaningTest } from '../search/meaning-cutoff.js';
import type {
  ConversationReader,
  MemoryHolder,
  SearchHit,
  SearchQuery,
  SearchResult,
} from '../stores/store.js';

/** The most memories a search lists beside its hits. */
export const MEMORY_HITS = 5;

/**
 * How close in meaning (cosine) a memory must be to be listed by a search: nearest neighbours
 * are always "nearest", so without a floor every search by meaning would list five unrelated
 * memories. Measured with all-MiniLM-L6-v2 on "The user is allergic to peanuts and carries an
 * epinephrine pen": paraphrases sharing no word with it scored 0.28–0.48 ("food allergy" 0.39),
 * unrelated questions -0.04–0.16 (test/mcp-memory-meaning.test.ts checks both sides).
 */
export const MEMORY_MIN_SIMILARITY = 0.25;

/** A query's vector and the model that made it (memories' vectors of another are not compared). */
export interface QueryMeaning {
  vector: Float32Array;
  model: string;
  /** How its matches are judged: a memory must stand above the query's noise level too. */
  test?: MeaningTest;
}

function hitOf(
  m: MemoryMatch,
  conversation: Awaited<ReturnType<ConversationReader['conversation']>>,
): SearchHit {
  return {
    conversationId: conversation?.id ?? '',
    platformConversationId: conversation?.platformId ?? '',
    title: conversation?.name ?? '',
    source: m.source,
    messageId: m.messageId ?? '',
    role: '',
    createdAt: m.createdAt,
    snippet: m.snippet,
    score: m.score,
    kind: 'memory',
    memory: { id: m.id, type: m.type, tags: m.tags },
  };
}

/** The memories matching a query (the source and date filters applied), best first. */
async function matching(
  store: Pick<ConversationReader, 'conversation'> & MemoryHolder,
  query: SearchQuery,
  mode: 'keyword' | 'semantic',
  meaning: QueryMeaning | undefined,
): Promise<MemoryMatch[]> {
  const bound = (text: string | undefined): number | undefined => {
    const time = text !== undefined ? parseDateBound(text, new Date()) : undefined;
    return time !== undefined ? Date.parse(time) : undefined;
  };
  const since = bound(query.since);
  const until = bound(query.until);
  const found =
    mode === 'keyword'
      ? await store.memories.search(query.text, MEMORY_HITS * 4)
      : meaning
        ? (
            await store.memories.searchByMeaning(meaning.vector, meaning.model, MEMORY_HITS * 4)
          ).filter(
            // A memory is one short text: it has to beat what nonsense gets from the query, not
            // the margin measured on conversations' passages.
            (m) =>
              m.score >= MEMORY_MIN_SIMILARITY &&
              (meaning.test === undefined || m.score > meaning.test.noise),
          )
        : [];
  return found.filter((m) => {
    const at = Date.parse(m.createdAt);
    return (
      (query.source === undefined || m.source === query.source) &&
      (since === undefined || at >= since) &&
      (until === undefined || at < until)
    );
  });
}

/**
 * A search's result with the memories matching it (first page only; none when the search asks
 * for a role, which memories have not): by words in a keyword search, by meaning in a semantic
 * one (`meaning`, the query's vector), and both fused in a hybrid one, each hit's `why` saying
 * which. Source and date filters apply to the memory's platform and creation time. Only active
 * memories are listed: a forgotten or edited one never is.
 */
export async function withMemoryHits(
  store: Pick<ConversationReader, 'conversation'> & MemoryHolder,
  query: SearchQuery,
  result: SearchResult,
  meaning?: QueryMeaning,
): Promise<SearchResult> {
  if ((query.offset ?? 0) > 0 || query.role !== undefined) return result;
  const { mode } = result;
  const conversations = new Map<string, Awaited<ReturnType<ConversationReader['conversation']>>>();
  const toHits = async (matches: MemoryMatch[]): Promise<SearchHit[]> => {
    const hits: SearchHit[] = [];
    for (const m of matches) {
      const id = m.conversationId;
      if (id && !conversations.has(id)) conversations.set(id, await store.conversation(id));
      hits.push(hitOf(m, id ? conversations.get(id) : undefined));
    }
    return hits;
  };
  const keyword =
    mode === 'semantic' ? [] : await toHits(await matching(store, query, 'keyword', meaning));
  const semantic = (
    mode === 'keyword' ? [] : await toHits(await matching(store, query, 'semantic', meaning))
  ).map((hit, i) => ({ ...hit, why: { semantic: { rank: i + 1, similarity: hit.score } } }));
  const memories =
    mode === 'keyword'
      ? keyword.map((hit, i) => ({ ...hit, why: { keyword: { rank: i + 1 } } }))
      : mode === 'semantic'
        ? semantic
        : fuseRankings(keyword, semantic);
  if (memories.length === 0) return result;
  return { ...result, memories: memories.slice(0, MEMORY_HITS) };
}
