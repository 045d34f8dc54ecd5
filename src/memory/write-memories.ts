import { randomUUID } from 'node:crypto';
import type { Bundle } from '../bundle/bundle.js';
import {
  appendMemoryJournal,
  journalLine,
  MEMORY_JOURNAL_LIMIT,
  removeMemoryJournal,
} from '../bundle/memory-journal.js';
import { storedMemory, toMemoryStore } from '../bundle/memory-store.js';
import { readMemoryStore, type MemoryStoreFile } from '../bundle/read-memory-store.js';
import { serialize } from '../bundle/serialize.js';
import type { Memory, Relation } from '../model/pam.js';
import { timestampOf, toPydanticTime } from '../model/time.js';
import type { Folder } from '../folder/folder.js';
import type { TextEmbedder } from '../recall/embed-conversations.js';
import { readMemoryVectors } from '../recall/embed-memories.js';
import { refreshMemoryVectors, type MemoryVectorNote } from '../recall/memory-vectors.js';
import type { Store } from '../stores/store.js';
import type { LockHolder } from '../folder/write-lock.js';

/** How memories are written into a data folder's bundle and its store (embedded or Neo4j). */
export interface MemoryOptions {
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
  /** Every PAM relation between them by id; a change adds to it (none is removed). */
  relations: Map<string, Relation>;
  /** `conversations_index` of the bundle (the platforms of conversations). */
  index: MemoryStoreFile['index'];
  store: Store;
  /** Now, as PAM memory times are written (Pydantic form). */
  now: string;
}

/** A change's memories: every one by id, and which of them it set or removed. */
class ChangedMemories extends Map<string, Memory> {
  readonly changed = new Set<string>();
  removed = false;

  constructor(memories: Iterable<Memory>) {
    super();
    for (const memory of memories) super.set(memory.id, memory);
  }

  override set(id: string, memory: Memory): this {
    this.changed.add(id);
    return super.set(id, memory);
  }

  override delete(id: string): boolean {
    this.removed = true;
    this.changed.delete(id);
    return super.delete(id);
  }

  override clear(): void {
    this.removed = true;
    this.changed.clear();
    super.clear();
  }
}

/** A change's relations: every one by id, and which of them it added. */
class ChangedRelations extends Map<string, Relation> {
  readonly changed = new Set<string>();

  constructor(relations: Iterable<Relation>) {
    super();
    for (const relation of relations) super.set(relation.id, relation);
  }

  override set(id: string, relation: Relation): this {
    this.changed.add(id);
    return super.set(id, relation);
  }
}

/** Writes `memory-store.json` whole (canonical, with its integrity block) and drops the journal. */
async function writeWhole(
  bundle: Bundle,
  file: MemoryStoreFile | undefined,
  memories: Iterable<Memory>,
  relations: Iterable<Relation>,
  now: string,
): Promise<Memory[]> {
  const written = toMemoryStore({
    // A bundle with no import yet gets an owner of its own, as an import would.
    ownerId: file?.owner.id ?? randomUUID(),
    ownerCreatedAt: file?.owner.created_at ?? now,
    exportDate: now,
    memories,
    relations,
    index: file?.index ?? [],
  });
  await bundle.files.write(bundle.layout.memoryStore, serialize(written));
  await removeMemoryJournal(bundle);
  return written.memories;
}

/**
 * Changes the bundle's memories as the data folder's writer: under the write lock (a remember
 * during an import waits for it, so neither loses the other's work), the change appended to
 * the bundle's memory journal and flushed to the disk (the record from then on: every reader
 * of the memories replays it), then the store's Memory nodes of the memories it changed made
 * the same. Every {@link MEMORY_JOURNAL_LIMIT} changes (or a change that removes a memory, or
 * a bundle with no `memory-store.json` yet), `memory-store.json` is written whole instead, so
 * a change costs the same however many memories there are. A change that throws writes nothing.
 */
export async function writeMemories<T>(
  folder: Folder,
  change: (context: MemoryChange) => Promise<T> | T,
  options: MemoryOptions = {},
): Promise<T> {
  return (await writeMemoriesWithVectors(folder, change, { ...options, embed: false })).result;
}

/**
 * {@link writeMemories}, and the memories' vectors kept in step in the same lock: a memory no
 * longer active loses its vector in `embeddings.json`; with `embed`, a new one is embedded when
 * the data folder has vectors and its model opens (see {@link refreshMemoryVectors}).
 */
export async function writeMemoriesWithVectors<T>(
  folder: Folder,
  change: (context: MemoryChange) => Promise<T> | T,
  options: MemoryOptions & { embed: boolean },
): Promise<{ result: T; vector: MemoryVectorNote }> {
  return folder.write(
    async (writing) => {
      const store = await writing.store();
      const { bundle } = folder;
      const file = await readMemoryStore(bundle);
      const memories = new ChangedMemories(file?.memories ?? []);
      const relations = new ChangedRelations(file?.relations ?? []);
      const now = toPydanticTime(timestampOf(options.now?.() ?? new Date()));
      const result = await change({ memories, relations, index: file?.index ?? [], store, now });
      const changed = [...memories.changed].flatMap((id) => {
        const memory = memories.get(id);
        return memory ? [storedMemory(memory)] : [];
      });
      const added = [...relations.changed].flatMap((id) => {
        const relation = relations.get(id);
        return relation ? [relation] : [];
      });
      const line = journalLine(changed, added);
      const journal = file?.journal;
      const base = file?.exportId;
      const whole =
        base === undefined ||
        memories.removed ||
        // A signed file is written whole, without its signature: a journal beside it would
        // leave a signature that no longer covers the memories (docs/pam-trust.md).
        (file?.signed === true && changed.length + added.length > 0) ||
        (journal !== undefined &&
          (journal.changes + 1 > MEMORY_JOURNAL_LIMIT.changes ||
            journal.bytes + Buffer.byteLength(line) > MEMORY_JOURNAL_LIMIT.bytes));
      let all: Memory[] | undefined;
      if (whole) all = await writeWhole(bundle, file, memories.values(), relations.values(), now);
      else if (changed.length + added.length > 0)
        await appendMemoryJournal(bundle, base, journal, line);
      const embedded = new Set((await readMemoryVectors(bundle)).map((v) => v.memoryId));
      const vector = await refreshMemoryVectors(store, folder, {
        embed: options.embed,
        modelDir: options.modelDir,
        lent: options.embedder,
      });
      const vectors = await readMemoryVectors(bundle);
      // Written whole, the store is made whole too: a change cut off by a kill between the
      // journal and the store is in its graph again.
      if (all) await store.memories.replace(all, vectors, [...relations.values()]);
      else {
        // The changed memories, and the vectors made now (an older memory's too, embedded
        // now that the model opened).
        const ids = new Set(changed.map((m) => m.id));
        await store.memories.upsert(
          changed,
          vectors.filter((v) => ids.has(v.memoryId) || !embedded.has(v.memoryId)),
          added,
        );
      }
      return { result, vector };
    },
    { onWait: options.onWait, maxMilliseconds: options.lockWaitMilliseconds },
  );
}

/**
 * Folds the bundle's memory journal into `memory-store.json` (written whole, canonical, with
 * its integrity block) for whatever reads the file alone; nothing when there is no journal.
 * Returns how many changes it folded.
 */
export async function flushMemories(
  folder: Folder,
  options: Pick<MemoryOptions, 'onWait' | 'now'> = {},
): Promise<number> {
  const { bundle } = folder;
  await folder.unlock();
  if (!folder.files.exists(folder.layout.bundle.memoryJournal)) return 0;
  return folder.write(
    async () => {
      const file = await readMemoryStore(bundle);
      if (!file?.journal) {
        // A journal of another file (a fold cut off before it was removed) says nothing.
        await removeMemoryJournal(bundle);
        return 0;
      }
      const now = toPydanticTime(timestampOf(options.now?.() ?? new Date()));
      await writeWhole(bundle, file, file.memories, file.relations, now);
      return file.journal.changes;
    },
    { onWait: options.onWait },
  );
}
