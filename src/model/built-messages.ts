import type { DraftMessage } from './draft.js';
import type { GrowState } from './grow-conversation.js';
import { stableId } from './ids.js';
import type { Message } from './pam.js';

/**
 * What one build of a growing conversation keeps for the next: ids already derived, each
 * message as built with what it was built from, and the settled tree to go on from (see
 * `growConversation`). A provider mutating a draft after a build (a tool result reaching its
 * call) lists it in `changed`.
 */
export interface BuildMemo {
  /** The conversation the memo is of: another one starts it afresh. */
  conversation: string | undefined;
  ids: Map<string, string>;
  built: Map<string, BuiltMessage>;
  changed: Set<DraftMessage>;
  /** The last build's tree, times and messages, when the next build may go on from them. */
  grown: GrowState | undefined;
  /** How the last build's messages differ from the one before (undefined: built whole). */
  change: BuildChange | undefined;
  /** The last build's messages (what the next change is from). */
  lastBuilt: readonly Message[] | undefined;
}

/**
 * How a grown conversation's `messages` differ from the previous build's: the same objects
 * before `from`, except at the indices in `replaced` (a message that gained a reply or whose
 * draft changed); new ones from `from` on. A projection goes on from its own last output
 * with it (see `ProjectMemo`).
 */
export interface BuildChange {
  /** The previous build's messages (those from `from` on were taken back). */
  previous: readonly Message[];
  from: number;
  replaced: readonly number[];
}

interface BuiltMessage {
  draft: DraftMessage;
  parent: string | null;
  children: readonly string[];
  createdAt: string;
  message: Message;
}

/** A memo for the first build of a conversation that will grow. */
export function emptyBuildMemo(): BuildMemo {
  return {
    conversation: undefined,
    ids: new Map(),
    built: new Map(),
    changed: new Set(),
    grown: undefined,
    change: undefined,
    lastBuilt: undefined,
  };
}

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
