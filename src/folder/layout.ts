import { basename, join, resolve, sep } from 'node:path';
import type { BundleLayout } from '../bundle/bundle-layout.js';
import { ATTACHMENTS_DIR, CONVERSATIONS_DIR, conversationRef } from '../model/bundle-refs.js';

/**
 * Every file and folder of a data folder, by what it is for, as absolute paths: the one place
 * their names are spelled (but for the two a PAM bundle's files hold as refs, the PAM format's,
 * in `model/bundle-refs.ts`). Code below the folder is handed the paths it needs; none of it
 * joins a name to a folder's path itself.
 */
export interface FolderLayout {
  /** The data folder itself. */
  dir: string;
  /** The PAM bundle: the record, from which everything else can be made again. */
  bundle: BundleLayout;
  /** The embedded store (SQLite), an index of the bundle. */
  store: string;
  /** The store's binary vector index saved for the next process (a cache; never when encrypted). */
  vectorIndex: string;
  /** Vectors made before, by model and text hash, kept across reindex and re-imports. */
  vectorCache: string;
  /** How the folder's vectors were made: the model or endpoint (`embed` writes it). */
  embeddingSettings: string;
  /** How far `watch` read each followed file. */
  liveState: string;
  /** Tombstones: the conversations deleted, so an import leaves them out. */
  deleted: string;
  /**
   * What `sync` sent and took in (docs/sync.md): written only after an import committed, so a
   * sync cut off repeats work and never skips any.
   */
  syncState: string;
  /** The write lock (an empty SQLite file: its lock is the writer's), and its holder's pid. */
  writeLock: string;
  lockHolder: string;
  /** The marker that says the folder is encrypted (no secret in it), and the wrapped folder key. */
  encryption: string;
  key: string;
  /** Where `encrypt` and `decrypt` write the folder's new form before the switch, and its plan. */
  staging: { encrypt: string; decrypt: string };
  /** The plan's name inside a staging folder. */
  stagingPlan: string;
  /**
   * The names at the top of the folder that hold no data of their own (markers, staging, the
   * lock's files): what encrypting leaves as it is.
   */
  notData: readonly string[];
  /**
   * The folder's own SQLite databases, by their names at its top: `encrypt` and `decrypt` rekey
   * these (SQLCipher) and no other file, whatever its bytes. An attachment that is a SQLite
   * file is sealed like any file; a file dropped into an encrypted folder (`.DS_Store`, an
   * export) is not taken for one of them.
   */
  databases: readonly string[];
}

/** The layout of the data folder at `dir`. */
export function layoutOf(dir: string): FolderLayout {
  const at = (name: string): string => join(dir, name);
  const staging = { encrypt: at('.encrypting'), decrypt: at('.decrypting') };
  const layout = {
    dir,
    bundle: bundleLayout(at('bundle')),
    store: at('chatgraph.sqlite'),
    vectorIndex: at('vector-index.bin'),
    vectorCache: at('vectors-cache.sqlite'),
    embeddingSettings: at('embedding.json'),
    liveState: at('live-state.sqlite'),
    deleted: at('deleted.json'),
    syncState: at('sync-state.json'),
    writeLock: at('write.lock'),
    lockHolder: at('write.lock.pid'),
    encryption: at('encryption.json'),
    key: at('key.age'),
    staging,
    stagingPlan: 'plan.json',
  };
  return {
    ...layout,
    notData: [
      layout.encryption,
      layout.key,
      staging.encrypt,
      staging.decrypt,
      layout.writeLock,
      layout.lockHolder,
    ].map((path) => basename(path)),
    databases: [layout.store, layout.vectorCache, layout.liveState].map((path) => basename(path)),
  };
}

/** The layout of a PAM bundle at `dir` (a data folder's, or one written or read elsewhere). */
export function bundleLayout(dir: string): BundleLayout {
  const conversations = join(dir, CONVERSATIONS_DIR);
  const attachments = join(dir, ATTACHMENTS_DIR);
  return {
    dir,
    memoryStore: join(dir, 'memory-store.json'),
    memoryJournal: join(dir, 'memory-journal.jsonl'),
    embeddings: join(dir, 'embeddings.json'),
    pamExports: join(dir, 'pam-exports.json'),
    signatureManifest: join(dir, 'signature-manifest.json'),
    conversations,
    attachments,
    conversation: (id) => join(dir, conversationRef(id)),
    conversationRef,
    attachment: (ref) => {
      // A ref is data from an export or a request: nothing outside the attachments folder is
      // read, served or removed through one.
      const root = resolve(attachments);
      const path = resolve(dir, ref);
      return path.startsWith(root + sep) ? path : undefined;
    },
  };
}
