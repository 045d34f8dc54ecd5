import { z } from 'zod';
import { toTimestamp } from '../../model/time.js';

// A PAM v1.0 conversation file as another tool writes it (the official SDK's `pam convert`,
// or chatgraph itself): what the official schema requires is required here, and what it gives
// a default (null, [], false, {}) may be left out or null, as the SDK leaves them out. Fields
// the schema does not know are dropped, not refused: a newer minor version may add some.

const Role = z.enum(['user', 'assistant', 'system', 'tool']);
const Json = z.record(z.string(), z.unknown());
const text = z.string().nullish();

/** A date-time PAM accepts (with or without a zone: read as UTC), refused when it is no date. */
export const PamTime = z.string().refine((value) => toTimestamp(value) !== undefined, {
  message: 'not a date-time',
});

const Attachment = z.object({
  type: z.enum(['file', 'image', 'audio', 'video', 'document']),
  name: text,
  mime_type: text,
  size_bytes: z.number().int().nonnegative().nullish(),
  ref: text,
  provider_id: text,
});

const Message = z.object({
  id: z.string().min(1),
  provider_message_id: text,
  role: Role,
  content: z
    .object({
      type: z.enum(['text', 'multipart']),
      text,
      parts: z
        .array(
          z.object({
            type: z.enum(['text', 'image', 'code', 'file', 'audio', 'video']),
            text,
            language: text,
            mime_type: text,
            ref: text,
          }),
        )
        .optional(),
    })
    .nullish(),
  created_at: PamTime,
  parent_id: text,
  children_ids: z.array(z.string().min(1)).nullish(),
  model: text,
  is_thought: z.boolean().nullish(),
  token_count: z.number().int().nonnegative().nullish(),
  attachments: z.array(Attachment).nullish(),
  citations: z.array(z.object({ title: text, url: text, snippet: text })).nullish(),
  tool_calls: z
    .array(
      z.object({
        id: text,
        name: z.string().min(1),
        input: z.union([Json, z.string()]).nullish(),
        output: text,
      }),
    )
    .nullish(),
  raw_metadata: Json.nullish(),
});

/** A PAM conversation file (`schema: "portable-ai-memory-conversation"`). */
export const PamConversation = z.object({
  schema: z.literal('portable-ai-memory-conversation'),
  schema_version: z.string().regex(/^1\.[0-9]+(-(rc|alpha|beta)[0-9]*)?$/, 'not a PAM 1.x version'),
  id: z.string().min(1),
  provider: z.object({
    name: z.string().regex(/^[a-z0-9_-]{2,32}$/, 'not a PAM platform name ([a-z0-9_-]{2,32})'),
    conversation_id: text,
    account_id: text,
    export_format_version: text,
  }),
  title: text,
  temporal: z.object({ created_at: PamTime, updated_at: PamTime.nullish() }),
  participants: z.array(z.object({ role: Role, name: text, provider_id: text })).nullish(),
  messages: z.array(Message),
  model: text,
  system_instruction: text,
  is_archived: z.boolean().nullish(),
  tags: z.array(z.string()).nullish(),
  raw_metadata: Json.nullish(),
  import_metadata: z.object({ importer: text, imported_at: text, source_file: text }).nullish(),
});

export type PamConversationFile = z.infer<typeof PamConversation>;
export type PamMessage = z.infer<typeof Message>;

/** The first few things wrong with a value that is not a PAM conversation, in one line. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`)
    .join('; ');
}
