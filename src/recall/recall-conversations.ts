import { answerSummary } from '../search/answer-summary.js';
import {
  NEXT_PASSAGES,
  groupByConversation,
  type ConversationHit,
} from '../search/group-by-conversation.js';
import { searchTerms } from '../search/search-terms.js';
import { MAX_SEARCH_LIMIT } from '../stores/page-bounds.js';
import type {
  ConversationReader,
  SearchHit,
  SearchMode,
  SearchQuery,
  SearchResult,
} from '../stores/store.js';

/** A search's answer as conversations: one entry each, ranked, and memories apart. */
export interface ConversationResult {
  mode: SearchMode;
  conversations: ConversationHit[];
  /** Memories matching well enough (first page only), listed apart from the conversations. */
  memories: SearchHit[];
  /** Messages and attachments matching, counted up to a cap (as in {@link SearchResult}). */
  matches: number;
  matchesCapped: boolean;
  /** Conversations skipped before these (paging). */
  offset: number;
  /** Whether more conversations follow this page. */
  more: boolean;
  /** The conversations holding the words, counted exactly (absent in a search by meaning alone). */
  conversationCount?: number;
  /** What the answer holds, in words ("1 conversation has the word; 2 more are close in meaning"). */
  summary: string;
  belowFloor?: number;
  /** Not searched by meaning: the question was left to its words (see `SearchResult`). */
  byWordsOnly?: true;
  hint?: string;
  nearest?: SearchHit[];
  notice?: string;
}

/** Rows fetched per conversation asked for, at first (a conversation often matches in several). */
const ROWS_PER_CONVERSATION = 5;

// A title match has no message: it opens at the conversation's first one.
async function withMessageIds(
  store: Pick<ConversationReader, 'thread'>,
  found: ConversationHit[],
): Promise<void> {
  const first = new Map<string, string>();
  const firstOf = async (id: string): Promise<string> => {
    let known = first.get(id);
    if (known === undefined) {
      known = (await store.thread(id))[0]?.id ?? '';
      first.set(id, known);
    }
    return known;
  };
  for (const c of found)
    for (const passage of [c.best, ...c.passages])
      if (passage.messageId === '') passage.messageId = await firstOf(c.conversationId);
}

// Memories shown beside conversations only when as close as the answers: by words, or by meaning
// no further than the least similar conversation shown by meaning. With none shown by meaning
// (only memories have vectors, after a reindex), the memories' own test decided already.
function memoriesWorthShowing(
  memories: readonly SearchHit[],
  hits: readonly SearchHit[],
): SearchHit[] {
  let least = Infinity;
  for (const hit of hits)
    if (hit.why?.semantic !== undefined) least = Math.min(least, hit.why.semantic.similarity);
  if (least === Infinity) least = -Infinity;
  return memories.filter(
    (m) => m.why?.keyword !== undefined || (m.why?.semantic?.similarity ?? -Infinity) >= least,
  );
}

// How many words a query looks for (one "word" or several "words" in the summary).
function termCount(text: string): number {
  try {
    const terms = searchTerms(text);
    return (terms?.words.length ?? 0) + (terms?.prefixes.length ?? 0);
  } catch {
    return 2;
  }
}

/** What an answer in conversations carries besides each one's best passage. */
export interface ConversationOptions {
  /**
   * The passages after the best one each conversation carries ({@link NEXT_PASSAGES} unless
   * said): none for a terminal, which shows the best and how many more matched.
   */
  passages?: number;
}

/**
 * A search answered in conversations, paged by conversation: enough rows are searched to fill the
 * page (fetched again, twice as many, when one conversation's rows crowd it), then grouped by
 * {@link groupByConversation}. Snippets are made only for the passages the answer carries.
 */
export async function recallConversations(
  store: Pick<ConversationReader, 'thread'>,
  search: (query: SearchQuery) => Promise<SearchResult>,
  query: SearchQuery,
  { passages = NEXT_PASSAGES }: ConversationOptions = {},
): Promise<ConversationResult> {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 20;
  const want = offset + limit;
  let rows = Math.min(MAX_SEARCH_LIMIT, want * ROWS_PER_CONVERSATION);
  for (;;) {
    const result = await search({
      ...query,
      offset: 0,
      limit: rows,
      snippetsPerConversation: passages + 1,
    });
    const grouped = groupByConversation(result.hits, passages);
    if (grouped.length <= want && result.hits.length === rows && rows < MAX_SEARCH_LIMIT) {
      rows = Math.min(MAX_SEARCH_LIMIT, rows * 2);
      continue;
    }
    const page = grouped.slice(offset, want);
    await withMessageIds(store, page);
    const memories = offset === 0 ? memoriesWorthShowing(result.memories ?? [], result.hits) : [];
    return {
      mode: result.mode,
      conversations: page,
      memories,
      matches: result.matches,
      matchesCapped: result.matchesCapped,
      offset,
      more: grouped.length > want,
      summary: answerSummary(
        result.mode,
        grouped,
        termCount(query.text),
        result.belowFloor,
        result.conversationCount,
        result.byWordsOnly === true,
      ),
      ...(result.conversationCount !== undefined
        ? { conversationCount: result.conversationCount }
        : {}),
      ...(result.belowFloor !== undefined ? { belowFloor: result.belowFloor } : {}),
      ...(result.byWordsOnly === true ? { byWordsOnly: true as const } : {}),
      ...(result.hint !== undefined ? { hint: result.hint } : {}),
      ...(result.nearest !== undefined ? { nearest: result.nearest } : {}),
      ...(result.notice !== undefined ? { notice: result.notice } : {}),
    };
  }
}
