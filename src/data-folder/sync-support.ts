import { memoryDigest } from '../trust/bundle-signature.js';
import { readMemoryStore } from '../bundle/read-memory-store.js';
import { sha256 } from '../model/content-hash.js';
import { flushMemories } from '../memory/write-memories.js';
import {
  readTombstones,
  writeTombstones,
  type Tombstone,
} from '../folder/deleted-conversations.js';
import type { Folder } from '../folder/folder.js';
import { deleteConversation } from './delete-conversation.js';

/*
 * What `sync` (src/sync/) needs of the data folder beyond its other verbs: what the folder holds
 * now, by digest (a sync sends what differs from what it sent or took in last), deletions taken
 * in from another machine, and its own state file. Each runs inside the folder's write sequence.
 */

/** The folder's conversations, memories and relations by id, each with a digest of its content. */
export interface FolderDigests {
  /** Whose the bundle's memories are (`owner.id`); undefined while the bundle has none. */
  ownerId: string | undefined;
  conversations: Record<string, string>;
  memories: Record<string, string>;
  /** Relations by id, with the ids of their two memories. */
  relations: Record<string, { digest: string; from: string; to: string }>;
}

/** The digests of what the bundle holds now (the memory journal folded in first). */
export async function folderDigests(folder: Folder): Promise<FolderDigests> {
  return folder.write(async () => {
    await flushMemories(folder);
    const { bundle } = folder;
    const file = await readMemoryStore(bundle);
    const digests: FolderDigests = {
      ownerId: file?.owner.id,
      conversations: {},
      memories: {},
      relations: {},
    };
    if (!file) return digests;
    const conversations: [string, string][] = [];
    for (const entry of file.index) {
      const bytes = await bundle.files
        .read(bundle.layout.conversation(entry.id))
        .catch(() => undefined);
      if (bytes) conversations.push([entry.id, sha256(bytes)]);
    }
    // Own properties (never `record[id] = …`): an id `__proto__` is a key like any other.
    digests.conversations = Object.fromEntries(conversations);
    digests.memories = Object.fromEntries(file.memories.map((m) => [m.id, memoryDigest(m)]));
    digests.relations = Object.fromEntries(
      file.relations.map((r) => [r.id, { digest: memoryDigest(r), from: r.from, to: r.to }]),
    );
    return digests;
  });
}

/**
 * Deletions another machine made: each conversation this folder holds is deleted as `delete`
 * does (restorable with `import --restore`); one it does not hold is tombstoned all the same, so
 * a copy arriving later from a third machine stays out. Returns how many were deleted here.
 */
export async function receiveDeletions(
  folder: Folder,
  deletions: readonly Tombstone[],
): Promise<number> {
  return folder.write(async () => {
    const known = new Set((await readTombstones(folder)).map((t) => t.id));
    const fresh = deletions.filter((t) => !known.has(t.id));
    let deleted = 0;
    const missing: Tombstone[] = [];
    for (const tombstone of fresh) {
      try {
        await deleteConversation(folder, tombstone.id, {
          deletedAt: new Date(tombstone.deletedAt),
        });
        deleted++;
      } catch (error) {
        if (!(error instanceof Error) || error.name !== 'ConversationNotFoundError') throw error;
        missing.push(tombstone);
      }
    }
    if (missing.length > 0)
      await writeTombstones(folder, [...(await readTombstones(folder)), ...missing]);
    return deleted;
  });
}

/** The sync state's text, or undefined when this folder never synced. */
export async function readSyncState(folder: Folder): Promise<string | undefined> {
  await folder.unlock();
  return folder.files.readText(folder.layout.syncState);
}

/** Writes the sync state (sealed like the folder's other files when it is encrypted). */
export async function writeSyncState(folder: Folder, text: string): Promise<void> {
  await folder.write(() => folder.files.write(folder.layout.syncState, text));
}
