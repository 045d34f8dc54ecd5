import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Tombstone } from '../folder/deleted-conversations.js';
import { signedStoreSchema, storePayload } from '../trust/bundle-signature.js';
import { verifyBytes } from '../trust/signing-key.js';
import { checksumOfMemories } from '../trust/store-checksum.js';
import { bindingId, DELETED_TAG, DIGEST_TAG, digestTag } from './export-binding.js';
import type { GroupLike, GroupMachine } from './group-contract.js';
import { conversationRef, isMachineFolder, sealedPath, seqOf, STORE_FILE } from './sync-names.js';

/** One export of another machine found in DIR. */
export interface FoundExport {
  machine: string;
  seq: number;
  dir: string;
}

/** Every other machine's export folders, each machine's in the order it wrote them. */
export async function listExports(dir: string, self: string): Promise<FoundExport[]> {
  const found: FoundExport[] = [];
  const machines = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory() && e.name !== self && isMachineFolder(e.name))
    .map((e) => e.name)
    .sort();
  for (const machine of machines) {
    const seqs = (await readdir(join(dir, machine), { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => ({ seq: seqOf(e.name), name: e.name }))
      .filter((e): e is { seq: number; name: string } => e.seq !== undefined)
      .sort((a, b) => a.seq - b.seq);
    for (const { seq, name } of seqs) found.push({ machine, seq, dir: join(dir, machine, name) });
  }
  return found;
}

/** An export opened and verified: its plain bundle in `out`, and what it carries. */
export interface OpenedExport {
  signer: GroupMachine;
  exportId: string;
  conversations: number;
  memories: number;
  deletions: Tombstone[];
}

/** Why an export was not taken: refused (named file, reason), or not all there yet. */
export type NotOpened =
  { refused: { file: string; reason: string } } | { pending: { missing: string[] } };

const IndexEntry = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]+$/, 'not a conversation id'),
    platform: z.string(),
    tags: z.array(z.string()).nullish(),
    temporal: z.object({ created_at: z.string() }).passthrough(),
  })
  .passthrough();

const SyncStore = signedStoreSchema.and(
  z.object({ conversations_index: z.array(IndexEntry) }).passthrough(),
);

async function readSealed(path: string): Promise<Buffer | undefined> {
  return readFile(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  });
}

/**
 * Opens export `found` with the group, checks it (signed by a machine of the group, over the
 * memories and the `export_id` that binds every other file), and writes its plain bundle into
 * `out` as an import reads it: deletions taken out of the index, the owner made `ownerId` (the
 * same person on every machine: the memories merge onto this folder's by id, PAM 16.3).
 */
export async function openExport(
  group: GroupLike,
  found: FoundExport,
  out: string,
  ownerId: string | undefined,
): Promise<OpenedExport | NotOpened> {
  const checked = await checkedStore(group, found);
  if ('refused' in checked || 'pending' in checked) return checked;
  const { store, signer } = checked;
  const deletions: Tombstone[] = [];
  const kept: unknown[] = [];
  const missing: string[] = [];
  const files: [string, Uint8Array][] = [];
  for (const entry of store.conversations_index) {
    const tags = entry.tags ?? [];
    if (tags.includes(DELETED_TAG)) {
      deletions.push({
        id: entry.id,
        platformId: null,
        source: entry.platform,
        deletedAt: entry.temporal.created_at,
      });
      continue;
    }
    const ref = conversationRef(entry.id);
    const file = sealedPath(found.dir, ref);
    const bytes = await readSealed(file);
    if (!bytes) {
      missing.push(file);
      continue;
    }
    let opened: Uint8Array;
    try {
      opened = await group.open(bytes);
    } catch (error) {
      return refused(file, `does not open for this machine (${messageOf(error)})`);
    }
    const digest = tags.find((t) => DIGEST_TAG.test(t));
    if (digest === undefined || digestTag(opened) !== digest)
      return refused(file, 'changed after it was signed');
    files.push([ref, opened]);
    kept.push({ ...entry, tags: tags.filter((t) => !DIGEST_TAG.test(t)) });
  }
  if (missing.length > 0) return { pending: { missing } };
  await mkdir(join(out, 'conversations'), { recursive: true });
  for (const [ref, bytes] of files) await writeFile(join(out, ...ref.split('/')), bytes);
  const { signature: _signature, ...rest } = store;
  const owner = ownerId === undefined ? store.owner : { ...store.owner, id: ownerId };
  await writeFile(
    join(out, STORE_FILE),
    JSON.stringify({ ...rest, owner, conversations_index: kept }, null, 2),
  );
  return {
    signer,
    exportId: store.export_id ?? '',
    conversations: files.length,
    memories: store.memories.length,
    deletions,
  };
}

const refused = (file: string, reason: string): NotOpened => ({ refused: { file, reason } });

// The export's memory-store.json opened and checked: signed by the machine whose folder it is
// in, a member of the group, over its memories and the `export_id` that binds the rest.
async function checkedStore(
  group: GroupLike,
  found: FoundExport,
): Promise<{ store: z.infer<typeof SyncStore>; signer: GroupMachine } | NotOpened> {
  const storeFile = sealedPath(found.dir, STORE_FILE);
  const sealed = await readSealed(storeFile);
  if (!sealed) return { pending: { missing: [storeFile] } };
  let json: unknown;
  try {
    const plain = await group.open(sealed);
    try {
      json = JSON.parse(new TextDecoder().decode(plain));
    } catch {
      return refused(storeFile, 'is not JSON');
    }
  } catch (error) {
    return refused(storeFile, `does not open for this machine (${messageOf(error)})`);
  }
  const parsed = SyncStore.safeParse(json);
  if (!parsed.success) return refused(storeFile, 'is not a sync export of chatgraph');
  const store = parsed.data;
  const signature = store.signature;
  if (!signature) return refused(storeFile, 'is not signed');
  const signer = group.trusts(signature.public_key);
  if (!signer)
    return refused(storeFile, `is signed by a key not in the group (${signature.public_key})`);
  // A member writes only its own folder: an export in another's is not that machine's.
  if (signer.id !== found.machine)
    return refused(
      storeFile,
      `is signed by ${signer.name}, not by the machine whose folder it is in`,
    );
  const checksum = checksumOfMemories(store.memories);
  const payload = storePayload({
    checksum,
    exportId: store.export_id ?? '',
    exportDate: store.export_date ?? '',
    ownerId: store.owner.id,
  });
  if (
    store.integrity?.checksum !== checksum ||
    verifyBytes(signature.public_key, payload, signature.value) !== true ||
    bindingId(store) !== store.export_id
  )
    return refused(storeFile, 'changed after it was signed');
  return { store, signer };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
