import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../bundle/atomic-write.js';
import { MEMORY_STORE_FILE } from '../bundle/layout.js';
import { toMemoryStore } from '../bundle/memory-store.js';
import { readMemoryStore, type MemoryStoreFile } from '../bundle/read-memory-store.js';
import { serialize } from '../bundle/serialize.js';
import { bundleDir } from '../data-dir.js';
import type { Memory } from '../model/pam.js';
import { timestampOf, toPydanticTime } from '../model/time.js';
import { openStore } from '../open-store.js';
import type { Neo4jTarget } from '../stores/neo4j/neo4j-target.js';
import type { TextEmbedder } from '../recall/embed-conversations.js';
import { readMemoryVectors } from '../recall/embed-memories.js';
import { refreshMemoryVectors, type MemoryVectorNote } from '../recall/memory-vectors.js';
import type { Store } from '../stores/store.js';
import { withWriteLock, type LockHolder } from '../write-lock.js';

/** Where memories are written: the data folder's bundle, and its store (embedded or Neo4j). */
export interface MemoryTarget {
  dataDir: string;
  neo4j?: Neo4jTarget | undefined;
  /** Called when another writer (an import) holds the data folder and this one waits. */
  onWait?: ((holder: LockHolder) => void) | undefined;
  /** The longest to wait for that writer, in milliseconds, before a `WriteLockBusyError` (no limit unless given). */
  lockWaitMilliseconds?: number | undefined;
  /** The clock (tests). */
  now?: (() => Date) | undefined;
  /** Where the embedding model is (the XDG cache, or `CHATGRAPH_MODEL_DIR`, unless given). */
  modelDir?: string | undefined;
  /**
   * A model already open (a server's, for its searches) to embed new memories with when it is
   * the data folder's; else one is opened for the change, and closed after it.
   */
  embedder?: (() => Promise<TextEmbedder | undefined>) | undefined;
}

/** What a change to the memories sees: every memory by id, the store, and the time. */
export interface MemoryChange {
  memories: Map<string, Memory>;
  /** `conversations_index` of the bundle (the platforms of conversations). */
  index: MemoryStoreFile['index'];
  store: Store;
  /** Now, as PAM memory times are written (Pydantic form). */
  now: string;
}

/**
 * Changes the bundle's memories as the data folder's writer: under the write lock (a remember
 * during an import waits for it, so neither loses the other's work), `memory-store.json`
 * rewritten atomically with its integrity block recomputed, then the store's Memory nodes
 * made the same. A change that throws writes nothing.
 */
export async function writeMemories<T>(
  target: MemoryTarget,
  change: (context: MemoryChange) => Promise<T> | T,
): Promise<T> {
  return (await writeMemoriesWithVectors(target, change, { embed: false })).result;
}

/**
 * {@link writeMemories}, and the memories' vectors kept in step in the same lock: a memory no
 * longer active loses its vector in `embeddings.json`; with `embed`, a new one is embedded when
 * the data folder has vectors and its model opens (see {@link refreshMemoryVectors}).
 */
export async function writeMemoriesWithVectors<T>(
  target: MemoryTarget,
  change: (context: MemoryChange) => Promise<T> | T,
  options: { embed: boolean },
): Promise<{ result: T; vector: MemoryVectorNote }> {
  return withWriteLock(
    target.dataDir,
    async () => {
      const bundle = bundleDir(target.dataDir);
      const store = await openStore({ dataDir: target.dataDir, neo4j: target.neo4j });
      try {
        const file = await readMemoryStore(bundle);
        const memories = new Map((file?.memories ?? []).map((m) => [m.id, m]));
        const now = toPydanticTime(timestampOf(target.now?.() ?? new Date()));
        const result = await change({ memories, index: file?.index ?? [], store, now });
        const written = toMemoryStore({
          // A bundle with no import yet gets an owner of its own, as an import would.
          ownerId: file?.owner.id ?? randomUUID(),
          ownerCreatedAt: file?.owner.created_at ?? now,
          exportDate: now,
          memories: memories.values(),
          index: file?.index ?? [],
        });
        await writeFileAtomic(join(bundle, MEMORY_STORE_FILE), serialize(written));
        const vector = await refreshMemoryVectors(store, target.dataDir, {
          embed: options.embed,
          modelDir: target.modelDir,
          lent: target.embedder,
        });
        await store.memories.replace(written.memories, await readMemoryVectors(bundle));
        return { result, vector };
      } finally {
        await store.close();
      }
    },
    {
      ...(target.onWait ? { onWait: target.onWait } : {}),
      maxWaitMilliseconds: target.lockWaitMilliseconds,
    },
  );
}
