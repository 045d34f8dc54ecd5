import type { ConversationHit, ConversationPassage, SearchHit } from './search-hit.js';

// Its callers (recall) read the grouped type here, beside the grouping.
export type { ConversationHit } from './search-hit.js';

/** How many passages after the best one each conversation carries. */
export const NEXT_PASSAGES = 3;

function passageOf(hit: SearchHit): ConversationPassage {
  const kind = hit.kind === 'attachment' || hit.kind === 'title' ? hit.kind : 'message';
  return {
    messageId: hit.messageId,
    snippet: hit.snippet,
    role: hit.role,
    kind,
    ...(hit.attachment ? { attachment: hit.attachment } : {}),
    ...(hit.why ? { why: hit.why } : {}),
  };
}

/**
 * Ranked rows folded into one entry per conversation, in the order of each conversation's best
 * row: the best passage, the next `passages` ones, and how many more matched. Memory rows (which
 * belong to no conversation's text) are left out: they are listed apart.
 */
export function groupByConversation(
  hits: readonly SearchHit[],
  passages = NEXT_PASSAGES,
): ConversationHit[] {
  const groups = new Map<string, ConversationHit>();
  for (const hit of hits) {
    if (hit.kind === 'memory') continue;
    const seen = groups.get(hit.conversationId);
    if (!seen) {
      groups.set(hit.conversationId, {
        conversationId: hit.conversationId,
        platformConversationId: hit.platformConversationId,
        title: hit.title,
        source: hit.source,
        createdAt: hit.createdAt,
        ...(hit.why ? { why: hit.why } : {}),
        score: hit.score,
        best: passageOf(hit),
        more: 0,
        passages: [],
      });
      continue;
    }
    seen.more++;
    if (seen.passages.length < passages) seen.passages.push(passageOf(hit));
  }
  return [...groups.values()];
}
