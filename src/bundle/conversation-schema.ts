// zod 3.25 ships zod 4 as `zod/v4`: three times faster here (a reindex checks every message).
import { z } from 'zod/v4';
import type { Conversation } from '../model/pam.js';

// The PAM conversation as chatgraph writes it (src/model/pam.ts), checked when a bundle file is
// read back: the bundle is outside the process (edited, damaged, written by another tool).
// Free-form objects (raw_metadata, tool inputs) are records of unknown values, not re-checked.

const Role = z.enum(['user', 'assistant', 'system', 'tool']);
const JsonObject = z.record(z.string(), z.unknown());

const ContentPart = z.object({
  type: z.enum(['text', 'image', 'code', 'file', 'audio', 'video']),
  text: z.string().nullable().optional(),
  language: z.string().nullable().optional(),
  mime_type: z.string().nullable().optional(),
  ref: z.string().nullable().optional(),
});

const Message = z.object({
  id: z.string(),
  provider_message_id: z.string().nullable(),
  role: Role,
  content: z
    .object({
      type: z.enum(['text', 'multipart']),
      text: z.string().nullable(),
      parts: z.array(ContentPart).optional(),
    })
    .optional(),
  created_at: z.string(),
  parent_id: z.string().nullable(),
  children_ids: z.array(z.string()),
  model: z.string().nullable(),
  is_thought: z.boolean(),
  token_count: z.number().nullable(),
  attachments: z.array(
    z.object({
      type: z.enum(['file', 'image', 'audio', 'video', 'document']),
      name: z.string().nullable(),
      mime_type: z.string().nullable(),
      size_bytes: z.number().nullable(),
      ref: z.string().nullable(),
      provider_id: z.string().nullable(),
    }),
  ),
  citations: z.array(
    z.object({
      title: z.string().nullable(),
      url: z.string().nullable(),
      snippet: z.string().nullable(),
    }),
  ),
  tool_calls: z.array(
    z.object({
      id: z.string().nullable(),
      name: z.string(),
      input: z.union([JsonObject, z.string(), z.null()]),
      output: z.string().nullable(),
    }),
  ),
  raw_metadata: JsonObject,
});

/** A bundle's conversation file. */
export const ConversationFile = z.object({
  schema: z.literal('portable-ai-memory-conversation'),
  schema_version: z.literal('1.0'),
  id: z.string(),
  provider: z.object({
    name: z.string(),
    conversation_id: z.string().nullable(),
    account_id: z.string().nullable(),
    export_format_version: z.string().nullable(),
  }),
  title: z.string().nullable(),
  temporal: z.object({ created_at: z.string(), updated_at: z.string().nullable() }),
  participants: z.array(
    z.object({
      role: Role,
      name: z.string().nullable().optional(),
      provider_id: z.string().nullable().optional(),
    }),
  ),
  messages: z.array(Message),
  model: z.string().nullable(),
  system_instruction: z.string().nullable(),
  is_archived: z.boolean(),
  tags: z.array(z.string()),
  raw_metadata: JsonObject,
  import_metadata: z
    .object({
      importer: z.string(),
      importer_version: z.string().nullable(),
      imported_at: z.string(),
      source_file: z.string(),
      source_checksum: z.string(),
    })
    .optional(),
});

/**
 * A compile-time check, never called: every Conversation fits the schema (the compiler refuses
 * this function otherwise), and what the schema accepts is what the type declares, field for
 * field above.
 */
export const conversationFitsSchema = (
  conversation: Conversation,
): z.infer<typeof ConversationFile> => conversation;

/**
 * Whether a parsed file is a PAM conversation. The checked value itself is kept (nothing is
 * rebuilt: a third of the cost of taking zod's copy, measured over 100,000 messages), so fields
 * a newer writer added survive a round trip.
 */
function isConversationFile(value: unknown): value is Conversation {
  return ConversationFile.safeParse(value).success;
}

/**
 * Reads a conversation file's text: the conversation, or what is wrong with it in one line
 * (not JSON, or the first fields that do not fit PAM).
 */
export function parseConversationFile(
  text: string,
): { ok: true; conversation: Conversation } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: `not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (isConversationFile(value)) return { ok: true, conversation: value };
  const { error } = ConversationFile.safeParse(value);
  return {
    ok: false,
    reason: `not a PAM conversation: ${(error?.issues ?? [])
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`)
      .join('; ')}`,
  };
}
