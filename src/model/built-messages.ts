import type { DraftMessage } from './draft.js';
import type { BuildMemo, BuiltMessage } from './build-memo.js';
import { stableId } from './ids.js';
import type { Message } from './pam.js';

/** Message ids by draft key (kept in the memo: deriving one is a SHA-1). */
export function idsOf(
  provider: string,
  conversationKey: string,
  memo: BuildMemo | undefined,
): (key: string) => string {
  if (memo && memo.conversation !== conversationKey) {
    memo.conversation = conversationKey;
    memo.ids.clear();
    memo.built.clear();
    memo.grown = undefined;
  }
  const ids = memo?.ids ?? new Map<string, string>();
  return (key) => {
    let value = ids.get(key);
    if (value === undefined) {
      value = stableId('message', provider, conversationKey, key);
      ids.set(key, value);
    }
    return value;
  };
}

/** Where a message sits once the tree is settled. */
export interface Placement {
  parent: string | null;
  kids: readonly string[];
  createdAt: string;
  idOf: (key: string) => string;
  /** Whether the conversation has a message of this key (a parent it lacks is kept aside). */
  has?: (key: string) => boolean;
}

/** A message built; with a memo, the one built before from the same draft and placement. */
export function builtMessage(
  draft: DraftMessage,
  at: Placement,
  memo: BuildMemo | undefined,
): Message {
  const before = memo?.built.get(draft.key);
  if (before && !memo?.changed.has(draft) && sameBuild(before, draft, at)) return before.message;
  const message = messageOf(draft, at);
  memo?.built.set(draft.key, {
    draft,
    parent: at.parent,
    children: at.kids,
    createdAt: at.createdAt,
    message,
  });
  return message;
}

function sameBuild(before: BuiltMessage, draft: DraftMessage, at: Placement): boolean {
  return (
    before.draft === draft &&
    before.parent === at.parent &&
    before.createdAt === at.createdAt &&
    before.children.length === at.kids.length &&
    before.children.every((kid, i) => kid === at.kids[i])
  );
}

function messageOf(message: DraftMessage, at: Placement): Message {
  const { parent, idOf } = at;
  const raw = { ...message.raw_metadata };
  if (message.createdAt === undefined) raw.timestamp_inferred = true;
  // A parent the conversation lacks (an export of a date range holds only the messages of that
  // range) is kept by its id, so that the copy holding it can link the two when they merge.
  if (parent === null && message.parentKey !== null && at.has?.(message.parentKey) === false)
    raw.missing_parent_id = idOf(message.parentKey);
  const result: Message = {
    id: idOf(message.key),
    provider_message_id: message.provider_message_id,
    role: message.role,
    created_at: at.createdAt,
    parent_id: parent === null ? null : idOf(parent),
    children_ids: at.kids.map(idOf),
    model: message.model,
    is_thought: message.is_thought,
    token_count: null,
    attachments: message.attachments,
    citations: message.citations,
    tool_calls: message.tool_calls,
    raw_metadata: raw,
  };
  if (message.content) result.content = message.content;
  return result;
}
