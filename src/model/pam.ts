/** Portable AI Memory v1.0 types, field for field as in the official schemas (snake_case kept). */

import type { z } from 'zod/v4';
import type * as pam from './pam-conversation.js';

// Each type is the schema's (`pam-conversation.ts`, the one declaration of the conversation).
export type Role = z.infer<typeof pam.roleSchema>;
export type JsonObject = z.infer<typeof pam.jsonObjectSchema>;
export type ProviderInfo = z.infer<typeof pam.providerInfoSchema>;
export type Participant = z.infer<typeof pam.participantSchema>;
export type ContentPart = z.infer<typeof pam.contentPartSchema>;
export type MessageContent = z.infer<typeof pam.messageContentSchema>;
export type Attachment = z.infer<typeof pam.attachmentSchema>;
export type Citation = z.infer<typeof pam.citationSchema>;
export type ToolCall = z.infer<typeof pam.toolCallSchema>;
export type Message = z.infer<typeof pam.messageSchema>;
export type ImportMetadata = z.infer<typeof pam.importMetadataSchema>;
export type Conversation = z.infer<typeof pam.conversationSchema>;

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
