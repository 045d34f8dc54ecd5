import type {
  Attachment,
  Citation,
  JsonObject,
  MessageContent,
  ProviderInfo,
  Role,
  ToolCall,
} from './pam.js';

/** A message as a provider reads it, before ids, links and times are settled. */
export interface DraftMessage {
  /** Unique within the conversation (a node id, a uuid, `uuid#thinking-0`). */
  key: string;
  parentKey: string | null;
  /** The order of children the export gives, where it gives one. */
  childKeys?: readonly string[];
  provider_message_id: string | null;
  role: Role;
  content?: MessageContent;
  /** A PAM timestamp, or undefined when the export has none. */
  createdAt: string | undefined;
  model: string | null;
  is_thought: boolean;
  attachments: Attachment[];
  citations: Citation[];
  tool_calls: ToolCall[];
  raw_metadata: JsonObject;
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
