import type { JsonObject, Message, ProviderInfo } from './pam.js';

/**
 * A message as a provider reads it, before ids, links and times are settled: the PAM message's
 * fields (model/pam-conversation.ts) but its id, links and time, which it has as keys here.
 */
export interface DraftMessage extends Pick<
  Message,
  | 'provider_message_id'
  | 'role'
  | 'content'
  | 'model'
  | 'is_thought'
  | 'attachments'
  | 'citations'
  | 'tool_calls'
  | 'raw_metadata'
> {
  /** Unique within the conversation (a node id, a uuid, `uuid#thinking-0`). */
  key: string;
  parentKey: string | null;
  /** The order of children the export gives, where it gives one. */
  childKeys?: readonly string[];
  /** A PAM timestamp, or undefined when the export has none. */
  createdAt: string | undefined;
}

/** A conversation as a provider reads it. */
export interface DraftConversation {
  provider: ProviderInfo;
  title: string | null;
  createdAt: string | undefined;
  updatedAt: string | undefined;
  messages: DraftMessage[];
  /** The last message of the thread the user saw, when the export says. */
  shownLeafKey: string | undefined;
  model: string | null;
  system_instruction: string | null;
  is_archived: boolean;
  raw_metadata: JsonObject;
  /** The assistant's name for `participants`. */
  assistantName: string;
}
