/** Portable AI Memory v1.0 types, field for field as in the official schemas (snake_case kept). */

export type Role = 'user' | 'assistant' | 'system' | 'tool';

export type JsonObject = Record<string, unknown>;

export interface ProviderInfo {
  name: string;
  conversation_id: string | null;
  account_id: string | null;
  export_format_version: string | null;
}

export interface Participant {
  role: Role;
  name?: string | null;
  provider_id?: string | null;
}

export interface ContentPart {
  type: 'text' | 'image' | 'code' | 'file' | 'audio' | 'video';
  text?: string | null;
  language?: string | null;
  mime_type?: string | null;
  ref?: string | null;
}

export interface MessageContent {
  type: 'text' | 'multipart';
  text: string | null;
  parts?: ContentPart[];
}

export interface Attachment {
  type: 'file' | 'image' | 'audio' | 'video' | 'document';
  name: string | null;
  mime_type: string | null;
  size_bytes: number | null;
  ref: string | null;
  provider_id: string | null;
}

export interface Citation {
  title: string | null;
  url: string | null;
  snippet: string | null;
}

export interface ToolCall {
  id: string | null;
  name: string;
  input: JsonObject | string | null;
  output: string | null;
}

export interface Message {
  id: string;
  provider_message_id: string | null;
  role: Role;
  content?: MessageContent;
  created_at: string;
  parent_id: string | null;
  children_ids: string[];
  model: string | null;
  is_thought: boolean;
  token_count: number | null;
  attachments: Attachment[];
  citations: Citation[];
  tool_calls: ToolCall[];
  raw_metadata: JsonObject;
}

export interface ImportMetadata {
  importer: string;
  importer_version: string | null;
  imported_at: string;
  source_file: string;
  source_checksum: string;
}

export interface Conversation {
  schema: 'portable-ai-memory-conversation';
  schema_version: '1.0';
  id: string;
  provider: ProviderInfo;
  title: string | null;
  temporal: { created_at: string; updated_at: string | null };
  participants: Participant[];
  messages: Message[];
  model: string | null;
  system_instruction: string | null;
  is_archived: boolean;
  tags: string[];
  raw_metadata: JsonObject;
  import_metadata?: ImportMetadata;
}

import type { MemoryType } from './memory-type.js';

export type { MemoryType };

/** PAM's memory lifecycle: an edit supersedes, `forget` retracts; nothing is deleted. */
export type MemoryStatus = 'active' | 'superseded' | 'deprecated' | 'retracted' | 'archived';

/** How a memory came to be (PAM `provenance.extraction_method`). */
export type ExtractionMethod =
  'llm_inference' | 'explicit_user_input' | 'api_export' | 'browser_extraction' | 'manual';

/**
 * A memory as chatgraph writes it: optional fields are omitted rather than null, and `status`
 * and `tags` are always present, so both the spec's and the Python SDK's checksums agree.
 */
export interface Memory {
  id: string;
  type: MemoryType;
  /** Present only when `type` is `custom` (PAM requires it then, and null otherwise). */
  custom_type?: string;
  status: MemoryStatus;
  content: string;
  content_hash: string;
  summary?: string;
  tags: string[];
  confidence?: { initial: number; current: number };
  temporal: {
    created_at: string;
    updated_at?: string;
    valid_from?: string;
    valid_until?: string;
    /** The memory that replaced this one (status `superseded`). */
    superseded_by?: string;
  };
  provenance: {
    platform: string;
    platform_user_id?: string;
    /** The PAM id of the conversation it came from (an entry of `conversations_index`). */
    conversation_ref?: string;
    /** The PAM id of the message it came from, within that conversation. */
    message_ref?: string;
    extraction_method: ExtractionMethod;
    extracted_at?: string;
    extractor: string;
  };
  /**
   * Who may see it: chatgraph writes none, and keeps one a bundle has. `exportable`
   * false keeps it out of every export (PAM §21.1, {@link isExportable}).
   */
  access?: {
    visibility?: 'private' | 'shared' | 'public';
    exportable?: boolean;
    shared_with?: { entity: string; permissions: ('read' | 'write' | 'delete')[] }[];
  };
  metadata?: JsonObject;
}

/** Whether a memory may leave in an export: PAM §21.1 (absent means exportable, its default). */
export function isExportable(memory: Pick<Memory, 'access'>): boolean {
  return memory.access?.exportable !== false;
}

/** PAM §13 relation types: `from` supports, contradicts, extends, supersedes, relates to or was derived from `to`. */
export const RELATION_TYPES = [
  'supports',
  'contradicts',
  'extends',
  'supersedes',
  'related_to',
  'derived_from',
] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

/** A PAM relation between two memories (`$defs.RelationObject`), field for field. */
export interface Relation {
  id: string;
  from: string;
  to: string;
  type: RelationType;
  confidence?: number | null;
  created_at: string;
}

export interface ConversationIndexEntry {
  id: string;
  platform: string;
  title: string | null;
  temporal: { created_at: string; updated_at: string | null };
  message_count: number;
  tags: string[];
  storage: { type: 'file'; ref: string; format: 'json' };
}

export interface MemoryStore {
  schema: 'portable-ai-memory';
  schema_version: '1.0';
  spec_uri: string;
  export_id: string;
  exported_by: string;
  export_date: string;
  owner: { id: string; created_at: string };
  memories: Memory[];
  relations: Relation[];
  conversations_index: ConversationIndexEntry[];
  integrity: { canonicalization: 'RFC8785'; checksum: string; total_memories: number };
  /** PAM 16: `incremental` holds what changed since the full export `base_export_id` names. */
  export_type: 'full' | 'incremental';
  base_export_id?: string;
}

export const PAM_SCHEMA_VERSION = '1.0';
