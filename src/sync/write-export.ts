import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../bundle/atomic-write.js';
import type { DataFolder } from '../data-folder/data-folder.js';
import type { Tombstone } from '../folder/deleted-conversations.js';
import { storeSignature } from '../trust/bundle-signature.js';
import { checksumOfMemories } from '../trust/store-checksum.js';
import { bindingId, DELETED_TAG, digestTag } from './export-binding.js';
import type { GroupLike } from './group-contract.js';
import { conversationRef, sealedPath, seqName, STORE_FILE } from './sync-names.js';

/** What one sync export holds. */
export interface SentExport {
  seq: number;
  exportId: string;
  exportType: 'full' | 'incremental';
  conversations: number;
  memories: number;
  deletions: number;
}

const StoreJson = z
  .object({
    export_date: z.string(),
    owner: z.object({ id: z.string() }).passthrough(),
    memories: z.array(z.object({ id: z.string() }).passthrough()),
    conversations_index: z.array(z.object({ id: z.string() }).passthrough()),
  })
  .passthrough();

/**
 * Writes this machine's export `seq` into `machineDir`: the data folder's PAM export (whole, or
 * `only` what changed, PAM 16's incremental export of `base`), each index entry tagged with its
 * file's digest, deletions as index entries tagged `chatgraph-deleted`, signed (PAM §18) with
 * the machine's key, every file sealed to the group. Conversations first, `memory-store.json`
 * last, each under a temporary name renamed when complete: a reader takes an export only once
 * its store and every file the store names are there.
 */
export async function writeSyncExport(
  folder: DataFolder,
  group: GroupLike,
  options: {
    machineDir: string;
    seq: number;
    base: string | null;
    only?: { conversations: ReadonlySet<string>; memories: ReadonlySet<string> } | undefined;
    deletions: readonly Tombstone[];
    now: Date;
  },
): Promise<SentExport | { refused: string }> {
  // The plain export is made in a private temporary folder, removed whatever happens.
  const temp = await mkdtemp(join(tmpdir(), 'chatgraph-sync-'));
  try {
    const out = join(temp, 'bundle');
    const incremental = options.base !== null;
    const written = await folder.exportPam({
      out,
      noAttachments: true,
      now: () => options.now,
      ...(incremental ? { base: options.base ?? undefined, only: options.only } : {}),
    });
    if ('refused' in written) return written;
    const exportDir = join(options.machineDir, seqName(options.seq));
    const store = StoreJson.parse(JSON.parse(await readFile(join(out, STORE_FILE), 'utf8')));
    const index: Record<string, unknown>[] = [];
    for (const entry of store.conversations_index) {
      const ref = conversationRef(entry.id);
      const bytes = await readFile(join(out, ...ref.split('/')));
      await writeFileAtomic(sealedPath(exportDir, ref), await group.seal(bytes), {
        durable: false,
      });
      const tags = z.array(z.string()).catch([]).parse(entry.tags);
      index.push({ ...entry, tags: [...tags, digestTag(bytes)] });
    }
    for (const tombstone of options.deletions) index.push(deletedEntry(tombstone));
    const unsigned: Record<string, unknown> = { ...store, conversations_index: index };
    const exportId = bindingId(unsigned);
    const key = group.signingKey();
    const checksum = checksumOfMemories(store.memories);
    const signature = storeSignature(key, {
      checksum,
      exportId,
      exportDate: store.export_date,
      ownerId: store.owner.id,
      signedAt: store.export_date,
    });
    const signed = { ...unsigned, export_id: exportId, signature };
    const text = new TextEncoder().encode(`${JSON.stringify(signed, null, 2)}\n`);
    await writeFileAtomic(sealedPath(exportDir, STORE_FILE), await group.seal(text));
    return {
      seq: options.seq,
      exportId,
      exportType: incremental ? 'incremental' : 'full',
      conversations: store.conversations_index.length,
      memories: store.memories.length,
      deletions: options.deletions.length,
    };
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

// A deleted conversation as an index entry (PAM 14 allows an entry with no file): its ids and
// when it was deleted, never its title or text.
function deletedEntry(tombstone: Tombstone): Record<string, unknown> {
  const platform =
    tombstone.source !== null && /^[a-z0-9_-]{2,32}$/.test(tombstone.source)
      ? tombstone.source
      : 'chatgraph';
  return {
    id: tombstone.id,
    platform,
    title: null,
    temporal: { created_at: tombstone.deletedAt, updated_at: tombstone.deletedAt },
    message_count: 0,
    tags: [DELETED_TAG],
  };
}

/** This machine's export folders in DIR by sequence number (only complete ones have a store). */
export async function ownExports(machineDir: string): Promise<string[]> {
  return readdir(machineDir).catch(() => []);
}
