import { parseDateBound } from '../stores/date-bound.js';
import type { SearchHit, SearchQuery, SearchResult, Store } from '../stores/store.js';

/** The most memories a search lists beside its hits. */
export const MEMORY_HITS = 5;

/**
 * A search's result with the memories matching its words (first page only; none when the
 * search asks for a role, which memories have not). Source and date filters apply to the
 * memory's platform and creation time.
 */
export async function withMemoryHits(
  store: Store,
  query: SearchQuery,
  result: SearchResult,
): Promise<SearchResult> {
  if ((query.offset ?? 0) > 0 || query.role !== undefined) return result;
  const bound = (text: string | undefined): number | undefined => {
    const time = text !== undefined ? parseDateBound(text, new Date()) : undefined;
    return time !== undefined ? Date.parse(time) : undefined;
  };
  const since = bound(query.since);
  const until = bound(query.until);
  const matches = (await store.memories.search(query.text, MEMORY_HITS * 4)).filter((m) => {
    const at = Date.parse(m.createdAt);
    return (
      (query.source === undefined || m.source === query.source) &&
      (since === undefined || at >= since) &&
      (until === undefined || at < until)
    );
  });
  if (matches.length === 0) return result;
  const memories: SearchHit[] = [];
  for (const [i, m] of matches.slice(0, MEMORY_HITS).entries()) {
    const conversation = m.conversationId ? await store.conversation(m.conversationId) : undefined;
    memories.push({
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
      why: { keyword: { rank: i + 1 } },
    });
  }
  return { ...result, memories };
}
