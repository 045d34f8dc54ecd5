import { redactText, type RedactionCounts } from '../model/redact.js';
import type { ExportItem } from './export-source.js';
import { safeName } from './file-names.js';
import type { OutputTree } from './output-tree.js';

/** How attachments are copied: as they are, or through the redactor. */
export interface AttachmentPolicy {
  /** Mask secrets: a text file is written masked; a file that is not text is left out. */
  redact: boolean;
  redactions: RedactionCounts;
  /** Counts the files left out because `redact` cannot mask them. */
  onWithheld: () => void;
}

// Text a person would open in an editor: UTF-8 with no NUL byte (binary formats have them early).
function asText(bytes: Buffer): string | undefined {
  if (bytes.subarray(0, 8192).includes(0)) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Copies a conversation's attachment files into `folder` of the export (one name each, valid on
 * every system), and returns each copied file's name by its bundle ref. An attachment the
 * export did not include, or whose ref points outside the bundle's attachments, is not copied
 * (its note lists it by name). With `redact`, a text file is written with its secrets masked
 * and a binary one is left out, so no secret leaves unmasked.
 */
export async function copyAttachments(
  tree: OutputTree,
  item: ExportItem,
  folder: string,
  policy: AttachmentPolicy,
): Promise<Map<string, string>> {
  const info = item.view.conversation;
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const message of item.view.messages)
    for (const attachment of message.attachments) {
      if (attachment.ref === null || names.has(attachment.ref)) continue;
      const source = item.attachmentPath(attachment.ref);
      if (source === undefined) continue;
      let name = safeName(
        attachment.name ?? attachment.ref.split('/').at(-1) ?? 'file',
        'file',
        120,
      );
      while (used.has(name.toLowerCase())) name = `${String(used.size + 1)}-${name}`;
      try {
        if (policy.redact) {
          const text = asText(await item.files.read(source));
          if (text === undefined) {
            policy.onWithheld();
            continue;
          }
          await tree.put(`${folder}/${name}`, redactText(text, policy.redactions), info.id);
        } else if (item.files.sealed)
          // An encrypted folder's attachment: opened in memory, written out plain as asked.
          await tree.put(`${folder}/${name}`, await item.files.read(source), info.id);
        else await tree.copy(`${folder}/${name}`, source, info.id);
      } catch (error) {
        // An attachment the export did not include: listed by name, not linked.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      used.add(name.toLowerCase());
      names.set(attachment.ref, name);
    }
  return names;
}
