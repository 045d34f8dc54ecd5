/**
 * The shapes of a ChatGPT export as far as chatgraph reads them. Every field is optional and
 * untrusted; readers check each value's type (see `../untrusted.ts`).
 */

/** `conversations.json` element (or a whole single-conversation file). */
export interface RawConversation {
  id?: unknown;
  conversation_id?: unknown;
  title?: unknown;
  create_time?: unknown;
  update_time?: unknown;
  mapping?: unknown;
  current_node?: unknown;
  default_model_slug?: unknown;
  is_archived?: unknown;
  user_id?: unknown;
}

/** A node of `mapping`. */
export interface RawNode {
  id?: unknown;
  parent?: unknown;
  children?: unknown;
  message?: unknown;
}

/** `mapping[k].message`. */
export interface RawMessage {
  id?: unknown;
  author?: unknown;
  create_time?: unknown;
  update_time?: unknown;
  content?: unknown;
  status?: unknown;
  end_turn?: unknown;
  weight?: unknown;
  metadata?: unknown;
  recipient?: unknown;
  channel?: unknown;
}

/** Keys of a conversation that chatgraph maps to PAM fields (the rest go to `raw_metadata`). */
export const MAPPED_CONVERSATION_KEYS = [
  'id',
  'conversation_id',
  'title',
  'create_time',
  'update_time',
  'mapping',
  'default_model_slug',
  'is_archived',
] as const;
