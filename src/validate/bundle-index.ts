import type { ConversationDocument } from './deep-conversation.js';
import type { StoreDocument } from './deep-memory-store.js';
import type { FileFindings } from './finding.js';

/**
 * A bundle's `conversations_index` against its conversation files (PAM §14, as the spec
 * repository's cross-file check has it): each entry's file there, and its title, platform and
 * message count the file's (errors); its creation time and tags (warnings). `pam validate`
 * checks each file alone and so none of this.
 */
export function checkIndexAgainstFiles(
  store: StoreDocument,
  files: ReadonlyMap<string, ConversationDocument | undefined>,
  at: FileFindings,
): void {
  const named = new Set<string>();
  (store.conversations_index ?? []).forEach((entry, i) => {
    const path = `$.conversations_index[${i}]`;
    const ref = entry.storage?.type === 'file' ? entry.storage.ref : undefined;
    if (ref === undefined) return;
    named.add(ref);
    if (!files.has(ref)) {
      at.error(
        `${path}.storage.ref`,
        'index-file',
        `conversation '${entry.id}': ${ref} is not in the bundle`,
      );
      return;
    }
    const conversation = files.get(ref);
    if (!conversation) return; // unreadable: said where it was read
    if (conversation.id && conversation.id !== entry.id)
      at.error(
        `${path}.id`,
        'index-file',
        `${ref} holds conversation '${conversation.id}', not '${entry.id}'`,
      );
    if ((entry.title ?? null) !== (conversation.title ?? null))
      at.error(
        `${path}.title`,
        'index-file',
        `'${entry.title ?? 'null'}', the file's is '${conversation.title ?? 'null'}'`,
      );
    if (entry.platform !== conversation.provider?.name)
      at.error(
        `${path}.platform`,
        'index-file',
        `'${entry.platform ?? ''}', the file's provider.name is '${conversation.provider?.name ?? ''}'`,
      );
    if (
      typeof entry.message_count === 'number' &&
      entry.message_count !== conversation.messages.length
    )
      at.error(
        `${path}.message_count`,
        'index-file',
        `${entry.message_count}, the file holds ${conversation.messages.length} messages`,
      );
    if (
      entry.temporal?.created_at &&
      conversation.temporal?.created_at &&
      Date.parse(entry.temporal.created_at) !== Date.parse(conversation.temporal.created_at)
    )
      at.warning(
        `${path}.temporal.created_at`,
        'index-file',
        `${entry.temporal.created_at}, the file's is ${conversation.temporal.created_at}`,
      );
    if (
      entry.tags &&
      conversation.tags &&
      [...entry.tags].sort().join('\n') !== [...conversation.tags].sort().join('\n')
    )
      at.warning(`${path}.tags`, 'index-file', "not the file's tags");
  });
  for (const ref of files.keys())
    if (!named.has(ref))
      at.warning(
        '$.conversations_index',
        'index-file',
        `${ref} is in the bundle but not in the index`,
      );
}
