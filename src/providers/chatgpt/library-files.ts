import { z } from 'zod';
import type { Attachment } from '../../model/pam.js';
import type { ConversionContext, LibraryFile } from '../provider.js';
import { toTimestamp } from '../../model/time.js';
import type { DraftMessage } from '../../model/draft.js';

/*
 * `library_files.json` (2026 exports): an array, one entry per file of the user's library, with
 * `file_id` (the name its file has in the export, `file_….dat` or `file_…-name`), `file_name`,
 * `mime_type`, `file_size_bytes`, `library_artifact_type` (null for uploads; `image` for a
 * generated image, `report` for a generated document, `writing_block` for text pasted into a
 * canvas), `origination_thread_id` (the conversation) and `origination_message_id` (the message
 * that made or took it; null for a file added to the library outside a chat). Nothing else in the
 * conversation names a generated document, so the entry is what links it to its message.
 */
const nullableText = z
  .string()
  .nullish()
  .transform((value) => (value ? value : null));

const entry = z.object({
  file_id: z.string().min(1),
  origination_message_id: nullableText,
  origination_thread_id: nullableText,
  created_at: nullableText,
  file_name: nullableText,
  mime_type: nullableText,
  file_size_bytes: z.number().int().nonnegative().nullish(),
  library_artifact_type: nullableText,
});

/** One library entry linked to a message, or undefined (not an entry, or linked to none). */
export function toLibraryFile(raw: unknown): LibraryFile | undefined {
  const parsed = entry.safeParse(raw);
  if (!parsed.success) return undefined;
  const file = parsed.data;
  // A file added to the library outside any chat belongs to no conversation.
  if (file.origination_message_id === null && file.origination_thread_id === null) return undefined;
  return {
    fileId: file.file_id,
    messageId: file.origination_message_id,
    threadId: file.origination_thread_id,
    createdAt: toTimestamp(file.created_at) ?? null,
    name: file.file_name,
    mimeType: file.mime_type,
    sizeBytes: file.file_size_bytes ?? null,
    artifactType: file.library_artifact_type,
  };
}

/**
 * The library files linked to a message, as attachments of it: those its own attachments do not
 * already name (an upload, a pasted writing block), each with the export's file when it is there,
 * and a warning when it is not.
 */
export function libraryAttachments(
  messageId: string,
  existing: readonly Attachment[],
  context: ConversionContext,
): Attachment[] {
  const attachments: Attachment[] = [];
  // Content parts name their file by pointer (`sediment://file_…`), uploads by id.
  const named = new Set(
    existing.map((a) => a.provider_id?.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')),
  );
  for (const file of context.libraryFilesOf?.(messageId) ?? []) {
    if (named.has(file.fileId)) continue;
    named.add(file.fileId);
    const ref = context.resolveAsset(file.fileId) ?? null;
    if (ref === null)
      context.report({
        level: 'warning',
        code: 'library-file-missing',
        message: `message ${messageId}: library_files.json links the file ${file.fileId}${
          file.name !== null ? ` (${file.name})` : ''
        } to it, but the export does not hold that file; the attachment keeps its name only`,
        record: context.record,
      });
    attachments.push({
      type: file.mimeType?.startsWith('image/')
        ? 'image'
        : file.artifactType === 'report'
          ? 'document'
          : 'file',
      name: file.name,
      mime_type: file.mimeType,
      size_bytes: file.sizeBytes,
      ref,
      provider_id: file.fileId,
    });
  }
  return attachments;
}

/**
 * The generated documents (`report`) the library took from this conversation whose message the
 * export left out (August 2026 exports omit some assistant messages): each goes on the last
 * assistant message written at or before its time (the first one when all are later), so it is
 * kept with its conversation, not dropped.
 */
export function placeOrphanReports(
  conversationId: string,
  drafts: DraftMessage[],
  context: ConversionContext,
): void {
  const files = context.libraryFilesOf?.(`thread:${conversationId}`) ?? [];
  if (files.length === 0) return;
  const present = new Set(drafts.map((d) => d.provider_message_id));
  const replies = drafts
    .filter((d) => d.role === 'assistant' && d.createdAt !== undefined)
    .sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? ''));
  for (const file of files) {
    if (file.artifactType !== 'report') continue;
    if (file.messageId !== null && present.has(file.messageId)) continue;
    const at =
      replies.filter((d) => file.createdAt && (d.createdAt ?? '') <= file.createdAt).at(-1) ??
      replies[0] ??
      drafts.at(-1);
    if (!at) continue;
    const ref = context.resolveAsset(file.fileId) ?? null;
    at.attachments.push({
      type: 'document',
      name: file.name,
      mime_type: file.mimeType,
      size_bytes: file.sizeBytes,
      ref,
      provider_id: file.fileId,
    });
    context.report({
      level: 'info',
      code: 'library-file-placed-by-time',
      message: `library_files.json links ${file.name ?? file.fileId} to ${
        file.messageId === null
          ? 'no message'
          : `message ${file.messageId}, which the export left out`
      }; it is attached to the reply written just before it (${at.provider_message_id ?? at.key})${
        ref === null ? ', by name only: the export does not hold the file' : ''
      }`,
      record: context.record,
    });
  }
}
