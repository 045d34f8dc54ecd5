import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { BundleWriter } from '../bundle/bundle-writer.js';
import { ATTACHMENTS_DIR } from '../model/bundle-refs.js';
import type { Bundle } from '../bundle/bundle.js';
import {
  BadBundleFileError,
  readBundleConversation,
  readBundleConversations,
  readBundleTexts,
} from '../bundle/read-bundle.js';
import { readTombstones, writeTombstones } from '../folder/deleted-conversations.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Conversation } from '../model/pam.js';
import { timestampOf } from '../model/time.js';
import { waitingOf, type Folder } from '../folder/folder.js';
import { pruneVectorCache } from '../recall/embed-store.js';
import { UnknownIdError, resolveConversation } from '../stores/resolve-id.js';
import type { ConversationInfo, Store } from '../stores/store.js';
import type { LockHolder } from '../folder/write-lock.js';

/** Options of {@link deleteConversation}. */
export interface DeleteOptions {
  /** The deletion time written into the tombstone; defaults to now. */
  deletedAt?: Date;
  /** Called when another writer holds the data folder and this deletion waits for it. */
  onWait?: ((holder: LockHolder) => void) | undefined;
}

/** What {@link deleteConversation} removed. */
export interface DeleteResult {
  /** chatgraph's id of the deleted conversation. */
  id: string;
  platformId: string | null;
  source: string | null;
  /** Whether its file was in the bundle (and is gone with its index entry). */
  bundle: boolean;
  /** Whether the store held it (and no longer does). */
  store: boolean;
  /** Attachment files removed from the bundle. */
  attachments: number;
  /** What could not be removed (an attachment file that would not go). */
  problems: Diagnostic[];
}

/** No conversation with the given id in the bundle or the store: one sentence for the user. */
export class ConversationNotFoundError extends Error {
  override readonly name = 'ConversationNotFoundError';
}

/**
 * Deletes one conversation everywhere (chatgraph's id or the platform's): its file, index
 * entry and attachment files in the bundle, its nodes, edges and search entries in the store,
 * and remembers it in `deleted.json`, so importing the same export again leaves it out (unless
 * the import is asked to restore it). Takes the data folder's write lock.
 */
export async function deleteConversation(
  folder: Folder,
  id: string,
  options: DeleteOptions = {},
): Promise<DeleteResult> {
  return folder.write(
    async (writing) => deleteLocked(folder, id, await writing.storeIfMade(), options),
    waitingOf(options),
  );
}

async function deleteLocked(
  folder: Folder,
  id: string,
  store: Store | undefined,
  options: DeleteOptions,
): Promise<DeleteResult> {
  const { bundle } = folder;
  const info = store ? await storeCopy(store, id) : undefined;
  const problems: Diagnostic[] = [];
  const file = await findInBundle(bundle, info?.id ?? id, problems);
  if (!info && !file)
    throw new ConversationNotFoundError(
      `there is no conversation "${id}" in ${folder.dir} (give chatgraph's id or the platform's, or their first 8 or more characters, as "chatgraph search" or the web app shows them)`,
    );
  const chatgraphId = info?.id ?? file?.id ?? id;
  const result: DeleteResult = {
    id: chatgraphId,
    platformId: info?.platformId ?? file?.provider.conversation_id ?? null,
    source: info?.source ?? file?.provider.name ?? null,
    bundle: file !== undefined,
    store: false,
    attachments: 0,
    problems,
  };
  // The tombstone first: whatever happens next, the conversation does not come back.
  const tombstones = (await readTombstones(folder)).filter((t) => t.id !== chatgraphId);
  tombstones.push({
    id: chatgraphId,
    platformId: result.platformId,
    source: result.source,
    deletedAt: timestampOf(options.deletedAt ?? new Date()),
  });
  await writeTombstones(folder, tombstones);
  if (store) {
    result.store = await store.deleteConversation(chatgraphId);
    // Its vectors left the index with it; the cache keeps none of its texts either.
    await pruneVectorCache(store, folder);
  }
  if (file) await deleteFromBundle(bundle, file, result);
  return result;
}

// The store's copy, by an id or its start; unknown there, the bundle may still hold it
// (an ambiguous start is refused: deleting is not a guess).
async function storeCopy(store: Store, id: string): Promise<ConversationInfo | undefined> {
  try {
    return await resolveConversation(store, id);
  } catch (error) {
    if (error instanceof UnknownIdError) return undefined;
    throw error;
  }
}

// The bundle's copy: by chatgraph's id directly, else (a platform id) by reading the files.
async function findInBundle(
  bundle: Bundle,
  id: string,
  problems: Diagnostic[],
): Promise<Conversation | undefined> {
  try {
    const direct = await readBundleConversation(bundle, id);
    if (direct) return direct;
  } catch (error) {
    if (!(error instanceof BadBundleFileError)) throw error;
    // Its own file is damaged: said so in the result; the store's copy is still deleted.
    problems.push(error.diagnostic);
  }
  if (!existsSync(bundle.dir)) return undefined;
  for await (const { conversation } of readBundleConversations(bundle, (p) => problems.push(p)))
    if (conversation.provider.conversation_id === id) return conversation;
  return undefined;
}

async function deleteFromBundle(
  bundle: Bundle,
  conversation: Conversation,
  result: DeleteResult,
): Promise<void> {
  const refs = attachmentRefs(conversation);
  // An export's file can be attached to several conversations: it stays while another names it.
  if (refs.size > 0) {
    // As text: a damaged file that names an attachment still keeps it.
    for await (const { text, id: other } of readBundleTexts(bundle)) {
      if (other === conversation.id) continue;
      for (const ref of refs) if (text.includes(JSON.stringify(ref))) refs.delete(ref);
      if (refs.size === 0) break;
    }
  }
  for (const ref of refs) {
    const path = bundle.layout.attachment(ref);
    if (path === undefined || !bundle.files.exists(path)) continue;
    try {
      await rm(bundle.files.onDisk(path));
      result.attachments++;
    } catch (error) {
      result.problems.push({
        level: 'error',
        code: 'attachment-not-deleted',
        message: `this attachment of the deleted conversation could not be removed: ${error instanceof Error ? error.message : String(error)}`,
        file: path,
      });
    }
  }
  await bundle.files.remove(bundle.layout.conversation(conversation.id));
  // Opening the bundle drops the index entry of the file just removed (see repairIndex).
  const writer = await BundleWriter.open(bundle);
  const owner = writer.ownerId;
  if (owner !== undefined) {
    const now = timestampOf(new Date());
    await writer.finish({ id: owner, createdAt: now }, now);
  }
}

// Every bundle-relative `ref` a conversation names (attachments, content parts).
function attachmentRefs(value: unknown, refs = new Set<string>()): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) attachmentRefs(item, refs);
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'ref' && typeof inner === 'string' && inner.startsWith(`${ATTACHMENTS_DIR}/`))
        refs.add(inner);
      else attachmentRefs(inner, refs);
    }
  }
  return refs;
}
