// zod 3.25 ships zod 4 as `zod/v4`: three times faster here (a reindex checks every message).
import { z } from 'zod/v4';

// The PAM conversation (v1.0, field for field as in the official schema, snake_case kept) as
// chatgraph writes it, declared once: its types (`src/model/pam.ts`) are inferred from these
// schemas, and the bundle checks a file read back against them (`bundle/conversation-schema.ts`).
// Free-form objects (raw_metadata, tool inputs) are records of unknown values, not re-checked.

export const roleSchema = z.enum(['user', 'assistant', 'system', 'tool']);
export const jsonObjectSchema = z.record(z.string(), z.unknown());

export const providerInfoSchema = z.object({
  name: z.string(),
  conversation_id: z.string().nullable(),
  account_id: z.string().nullable(),
  export_format_version: z.string().nullable(),
});

export const participantSchema = z.object({
  role: roleSchema,
  name: z.string().nullable().optional(),
  provider_id: z.string().nullable().optional(),
});

export const contentPartSchema = z.object({
  type: z.enum(['text', 'image', 'code', 'file', 'audio', 'video']),
  text: z.string().nullable().optional(),
  language: z.string().nullable().optional(),
  mime_type: z.string().nullable().optional(),
  ref: z.string().nullable().optional(),
});

export const messageContentSchema = z.object({
  type: z.enum(['text', 'multipart']),
  text: z.string().nullable(),
  parts: z.array(contentPartSchema).optional(),
});

export const attachmentSchema = z.object({
  type: z.enum(['file', 'image', 'audio', 'video', 'document']),
  name: z.string().nullable(),
  mime_type: z.string().nullable(),
  size_bytes: z.number().nullable(),
  ref: z.string().nullable(),
  provider_id: z.string().nullable(),
});

export const citationSchema = z.object({
  title: z.string().nullable(),
  url: z.string().nullable(),
  snippet: z.string().nullable(),
});

export const toolCallSchema = z.object({
  id: z.string().nullable(),
  name: z.string(),
  input: z.union([jsonObjectSchema, z.string(), z.null()]),
  output: z.string().nullable(),
});

export const messageSchema = z.object({
  id: z.string(),
  provider_message_id: z.string().nullable(),
  role: roleSchema,
  content: messageContentSchema.optional(),
  created_at: z.string(),
  parent_id: z.string().nullable(),
  children_ids: z.array(z.string()),
  model: z.string().nullable(),
  is_thought: z.boolean(),
  token_count: z.number().nullable(),
  attachments: z.array(attachmentSchema),
  citations: z.array(citationSchema),
  tool_calls: z.array(toolCallSchema),
  raw_metadata: jsonObjectSchema,
});

export const importMetadataSchema = z.object({
  importer: z.string(),
  importer_version: z.string().nullable(),
  imported_at: z.string(),
  source_file: z.string(),
  source_checksum: z.string(),
});

/** A bundle's conversation file. */
export const conversationSchema = z.object({
  schema: z.literal('portable-ai-memory-conversation'),
  schema_version: z.literal('1.0'),
  id: z.string(),
  provider: providerInfoSchema,
  title: z.string().nullable(),
  temporal: z.object({ created_at: z.string(), updated_at: z.string().nullable() }),
  participants: z.array(participantSchema),
  messages: z.array(messageSchema),
  model: z.string().nullable(),
  system_instruction: z.string().nullable(),
  is_archived: z.boolean(),
  tags: z.array(z.string()),
  raw_metadata: jsonObjectSchema,
  import_metadata: importMetadataSchema.optional(),
});
