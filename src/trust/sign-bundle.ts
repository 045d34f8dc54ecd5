import { join } from 'node:path';
import { serialize } from '../bundle/serialize.js';
import { waitingOf, type Folder } from '../folder/folder.js';
import type { LockHolder } from '../folder/write-lock.js';
import { flushMemories } from '../memory/write-memories.js';
import { bundleFiles, fileDigest } from './bundle-files.js';
import {
  manifestPayload,
  memoryDigest,
  storeSignature,
  type Manifest,
} from './bundle-signature.js';
import { readStoreFile } from './read-store-file.js';
import { signBytes, SigningKeyError, type SigningKey } from './signing-key.js';
import { checksumOfMemories } from './store-checksum.js';

/** How {@link signBundle} runs. */
export interface SignOptions {
  now?: (() => Date) | undefined;
  /** Called when another writer holds the data folder and signing waits for it. */
  onWait?: ((holder: LockHolder) => void) | undefined;
}

/** What {@link signBundle} signed. */
export interface SignResult {
  bundle: string;
  exportId: string;
  signedAt: string;
  publicKey: string;
  keyId: string;
  /** How many files and memories the manifest lists. */
  files: number;
  memories: number;
}

/**
 * Signs a data folder's bundle with `key`, under its write lock: the memory journal folded into
 * `memory-store.json` first (the signature covers what a reader of the file alone sees), then
 * PAM §18's `signature` block written into `memory-store.json`, then chatgraph's manifest of
 * every file and memory (`layout.signatureManifest`), signed by the same key. A later write of the bundle
 * rewrites `memory-store.json` without the block (see docs/pam-trust.md).
 */
export async function signBundle(
  folder: Folder,
  key: SigningKey,
  options: SignOptions = {},
): Promise<SignResult> {
  return folder.write(async () => {
    await flushMemories(folder, options.now ? { now: options.now } : {});
    const { bundle } = folder;
    const storeFile = bundle.layout.memoryStore;
    const { json, store } = await readStoreFile(bundle);
    const exportId = store.export_id;
    const exportDate = store.export_date;
    if (!exportId || !exportDate)
      throw new SigningKeyError(`${storeFile} has no export_id or export_date to sign`);
    const checksum = checksumOfMemories(store.memories);
    if (store.integrity?.checksum !== checksum)
      throw new SigningKeyError(
        `${storeFile}: integrity.checksum is not the memories' checksum (${checksum}); not signed`,
      );
    const now = (options.now?.() ?? new Date()).toISOString();
    // PAM: signed_at is not before export_date (a clock behind the writer's gives export_date).
    const signedAt = Date.parse(now) > Date.parse(exportDate) ? now : exportDate;
    const block = storeSignature(key, {
      checksum,
      exportId,
      exportDate,
      ownerId: store.owner.id,
      signedAt,
    });
    await bundle.files.write(storeFile, serialize({ ...json, signature: block }));

    // Built as own properties (never `record[id] = …`): a memory id `__proto__` is a key like
    // any other, not the object's prototype (which left it out of the signed manifest).
    const fileDigests: [string, string][] = [];
    for (const ref of await bundleFiles(bundle))
      fileDigests.push([ref, await fileDigest(bundle, join(bundle.dir, ref))]);
    const files: Record<string, string> = Object.fromEntries(fileDigests);
    const memories: Record<string, string> = Object.fromEntries(
      store.memories.map((memory) => [memory.id, memoryDigest(memory)]),
    );
    const unsigned: Omit<Manifest, 'signature'> = {
      chatgraph_manifest: 1,
      export_id: exportId,
      signed_at: signedAt,
      files,
      memories,
    };
    const manifest: Manifest = {
      ...unsigned,
      signature: {
        algorithm: 'Ed25519',
        public_key: key.publicKey,
        key_id: key.keyId,
        value: signBytes(key, manifestPayload(unsigned)),
      },
    };
    await bundle.files.write(bundle.layout.signatureManifest, serialize(manifest));
    return {
      bundle: bundle.dir,
      exportId,
      signedAt,
      publicKey: key.publicKey,
      keyId: key.keyId,
      files: fileDigests.length,
      memories: store.memories.length,
    };
  }, waitingOf(options));
}
