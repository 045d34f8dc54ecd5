import { z } from 'zod';
import type { ThreadAttachment } from './store.js';

/**
 * How both stores read a conversation's Attachment nodes for `thread`: the same columns, in
 * the same order (by message, then position), parsed here since they come from a database.
 */
export const ATTACHMENT_COLUMNS = {
  sql: `id, message_id AS messageId, name, mime_type AS mimeType, ref, size_bytes AS sizeBytes, content AS text`,
  cypher: `a.id AS id, a.message_id AS messageId, a.name AS name, a.mime_type AS mimeType, a.ref AS ref,
  a.size_bytes AS sizeBytes, a.content AS text`,
} as const;

const nullableText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);

const AttachmentRow = z.object({
  id: z.string(),
  messageId: z.string(),
  name: nullableText,
  mimeType: nullableText,
  ref: nullableText,
  sizeBytes: z
    .number()
    .int()
    .nullish()
    .transform((value) => value ?? null),
  text: nullableText,
});

/**
 * Gives each message its attachments from rows of {@link ATTACHMENT_COLUMNS} (in stored order);
 * a message with none gets an empty list.
 */
export function withAttachments<T extends { id: string }>(
  messages: readonly T[],
  rows: readonly unknown[],
): (T & { attachments: ThreadAttachment[] })[] {
  const byMessage = new Map<string, ThreadAttachment[]>();
  for (const raw of rows) {
    const { messageId, ...attachment } = AttachmentRow.parse(raw);
    const list = byMessage.get(messageId);
    if (list) list.push(attachment);
    else byMessage.set(messageId, [attachment]);
  }
  return messages.map((message) => ({
    ...message,
    attachments: byMessage.get(message.id) ?? [],
  }));
}
