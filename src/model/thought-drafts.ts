import type { DraftMessage } from './draft.js';
import type { JsonObject } from './pam.js';

/** A thinking block (Claude.ai, Claude Code): its text, time and the block's other fields. */
export interface Thought {
  text: string;
  createdAt: string | undefined;
  raw: JsonObject;
}

/**
 * Each thinking block as its own `is_thought` message, chained just before the reply they belong
 * to; returns them and the key the reply hangs from (the last thought, or the reply's parent).
 */
export function thoughtDrafts(
  replyKey: string,
  parentKey: string | null,
  thoughts: readonly Thought[],
  model: string | null,
): { drafts: DraftMessage[]; replyParent: string | null } {
  let parent = parentKey;
  const drafts = thoughts.map((thought, t): DraftMessage => {
    const key = `${replyKey}#thinking-${t}`;
    const draft: DraftMessage = {
      key,
      parentKey: parent,
      provider_message_id: replyKey,
      role: 'assistant',
      content: { type: 'text', text: thought.text },
      createdAt: thought.createdAt,
      model,
      is_thought: true,
      attachments: [],
      citations: [],
      tool_calls: [],
      raw_metadata: { ...thought.raw, thought_of: replyKey },
    };
    parent = key;
    return draft;
  });
  return { drafts, replyParent: parent };
}
