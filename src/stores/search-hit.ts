/** One ranked search hit. */
export interface SearchHit {
  conversationId: string;
  /** The platform's conversation id. */
  platformConversationId: string;
  title: string;
  source: string;
  messageId: string;
  role: string;
  createdAt: string;
  /** The matching passage, matched words between {@link MATCH_START} and {@link MATCH_END}. */
  snippet: string;
  /** BM25 score (higher is better). */
  score: number;
  /**
   * What matched: the message (the default), text attached to it, the conversation's title, or
   * a memory (then `memory` names it, and the conversation and message are its source, empty
   * when it has none).
   */
  kind?: 'message' | 'attachment' | 'title' | 'memory';
  /** Set on a memory hit: the memory's PAM id, type and tags. */
  memory?: { id: string; type: string; tags: string[] };
  /** Set when the hit is in text pasted or attached to the message, not the message itself. */
  attachment?: { id: string; name: string | null };
  /** Why it matched: the words it matched, how close in meaning it is, or both. */
  why?: HitReason;
}

/** Why a hit matched, for people and agents reading results. */
export interface HitReason {
  /** Matched by words: its rank among keyword hits (1-based). */
  keyword?: { rank: number };
  /** Matched by meaning: its rank among vector hits (1-based) and cosine similarity. */
  semantic?: { rank: number; similarity: number };
}
