import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, readFile, readdir, rename, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { dirname, join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import type { ConversationIndexEntry, Memory, MemoryStore, Relation } from '../model/pam.js';
import type { Entry } from '../read/entry.js';
import type { Bundle } from './bundle.js';
import { readMemoryJournal, removeMemoryJournal } from './memory-journal.js';
import { sameMemory, toMemoryStore } from './memory-store.js';
import { readMemoryStore } from './read-memory-store.js';
import { serialize } from './serialize.js';
import { contentHashOfText } from './conversation-text.js';
import { isInlineTextRef } from './inline-text.js';
import { repairIndex, type IndexRepair } from './repair-index.js';
import { SealedFileError, type SealedFiles } from './sealed-files.js';

/** What happened to one conversation file. */
export type WriteOutcome = 'created' | 'updated' | 'unchanged';

/**
 * Writes a PAM bundle: one file per conversation, copied attachments, and `memory-store.json`
 * at the end. An existing bundle is extended: its index and memories are kept and updated.
 */
export class BundleWriter {
  private readonly index = new Map<string, ConversationIndexEntry>();
  private readonly memories = new Map<string, Memory>();
  /** PAM §13 relations between the memories, by id (kept as they are: none is removed). */
  private readonly relations = new Map<string, Relation>();
  /** What the bundle's `memory-store.json` said when opened or last written. */
  private existing: { owner: { id: string; created_at: string }; exportId?: string } | undefined;
  /** The memory journal's changes the bundle had when opened (see {@link finish}). */
  private journalled: ReadonlyMap<string, Memory> = new Map();
  /** What {@link removeMemories} left out: a journalled change of it stays out too. */
  private leftOut: ((memory: Memory) => boolean) | undefined;
  private readonly copied = new Set<string>();
  private readonly swept = new Set<string>();
  /** How the index was made to agree with the conversation files when the bundle was opened. */
  repaired: IndexRepair = { added: 0, removed: 0, unreadable: [] };

  private constructor(readonly bundle: Bundle) {}

  /** The bundle's folder. */
  get dir(): string {
    return this.bundle.dir;
  }

  private get files(): SealedFiles {
    return this.bundle.files;
  }

  /** Opens (or starts) the bundle. */
  static async open(bundle: Bundle): Promise<BundleWriter> {
    const writer = new BundleWriter(bundle);
    const { layout } = bundle;
    await mkdir(layout.conversations, { recursive: true });
    await removeStaleTemporaries(layout.conversations);
    await removeStaleTemporaries(layout.attachments);
    // Parsed, not cast: a well-formed file of another shape is a MemoryStoreError naming it.
    const file = await readMemoryStore(bundle);
    if (file) {
      writer.existing = {
        owner: file.owner,
        ...(file.exportId ? { exportId: file.exportId } : {}),
      };
      for (const entry of file.index) writer.index.set(entry.id, entry);
      for (const memory of file.memories) writer.memories.set(memory.id, memory);
      for (const relation of file.relations) writer.relations.set(relation.id, relation);
      if (file.journal) writer.journalled = file.journal.memories;
    }
    writer.repaired = await repairIndex(bundle, writer.index);
    return writer;
  }

  /** The owner id an earlier import settled on, if any. */
  get ownerId(): string | undefined {
    return this.existing?.owner.id;
  }

  /** The index entry of a conversation already in the bundle. */
  indexed(id: string): ConversationIndexEntry | undefined {
    return this.index.get(id);
  }

  /**
   * Writes one conversation's file unless the file there has the same content (import metadata
   * aside), so a re-import leaves unchanged files, and their provenance, alone. Synchronous on
   * purpose: a small file's open/write/rename costs less CPU blocking than through promises,
   * and the CPU is what an import is short of (conversion runs on the other cores). `stored`
   * is the file's text when the caller read it already.
   */
  writeConversation(
    id: string,
    text: string | Uint8Array,
    contentHash: string | undefined,
    index: ConversationIndexEntry,
    stored: { text: string | undefined } = { text: this.storedText(id) },
  ): WriteOutcome {
    const path = this.bundle.layout.conversation(id);
    const previous = stored.text;
    this.index.set(id, index);
    if (
      previous !== undefined &&
      contentHashOfText(previous) ===
        (contentHash ??
          contentHashOfText(typeof text === 'string' ? text : Buffer.from(text).toString('utf8')))
    ) {
      return 'unchanged';
    }
    // Not flushed one by one (see AtomicWriteOptions.durable): thousands per import.
    this.files.writeSync(path, text, { durable: false });
    return previous !== undefined ? 'updated' : 'created';
  }

  /** The text of an inline attachment-text file in the bundle, when it has one. */
  storedInlineText(ref: string): string | undefined {
    if (!isInlineTextRef(ref)) return undefined;
    return this.files.readTextSync(join(this.dir, ref));
  }

  /** The text of a conversation's file in the bundle, when it has one. */
  storedText(id: string): string | undefined {
    if (!this.index.has(id)) return undefined;
    try {
      return this.files.readTextSync(this.bundle.layout.conversation(id));
    } catch (error) {
      // A sealed file that does not open (damaged) is as good as none: written anew.
      if (error instanceof SealedFileError) return undefined;
      throw error;
    }
  }

  /**
   * Writes a conversation's file without reading the one there: for a writer that knows the
   * content changed (a followed session log), so an append costs the write, not a read too.
   */
  putConversation(
    id: string,
    text: string | Uint8Array,
    index: ConversationIndexEntry,
  ): WriteOutcome {
    const existed = this.index.has(id);
    this.index.set(id, index);
    this.files.writeSync(this.bundle.layout.conversation(id), text);
    return existed ? 'updated' : 'created';
  }

  /** Sets a conversation's index entry (one written before and not yet in `memory-store.json`). */
  setIndexEntry(id: string, index: ConversationIndexEntry): void {
    this.index.set(id, index);
  }

  /** Copies an export file to its bundle-relative `ref`, once; an existing copy of the same size is kept. */
  async copyAsset(entry: Entry, ref: string): Promise<boolean> {
    if (this.copied.has(ref)) return false;
    this.copied.add(ref);
    const target = join(this.dir, ref);
    if (this.files.sealed) return copySealed(this.files, entry, target);
    const existing = await stat(target).catch(() => undefined);
    if (existing && entry.size !== undefined && existing.size === entry.size) return false;
    await mkdir(dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      if (entry.localFile !== undefined) await copyFile(entry.localFile, temp);
      else await pipeline(await entry.open(), createWriteStream(temp));
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return true;
  }

  /**
   * Writes attachment text an export held inline (see `InlineTexts`) at its bundle-relative
   * `ref`, atomically; a file there with the same text is left alone. True when written.
   */
  async writeText(ref: string, text: string): Promise<boolean> {
    if (!isInlineTextRef(ref)) throw new Error(`not an inline text ref: ${ref}`);
    const target = join(this.dir, ref);
    // A killed import may have left a temporary file in this conversation's folder.
    const folder = dirname(target);
    if (!this.swept.has(folder)) {
      this.swept.add(folder);
      await removeStaleTemporaries(folder);
    }
    const previous = await this.files.readText(target).catch(() => undefined);
    if (previous === text) return false;
    await this.files.write(target, text, { durable: false });
    return true;
  }

  /** Removes the memories `leave` picks (and any journalled change of them); how many. */
  removeMemories(leave: (memory: Memory) => boolean): number {
    let removed = 0;
    for (const [id, memory] of this.memories)
      if (leave(memory)) {
        this.memories.delete(id);
        removed++;
      }
    this.leftOut = leave;
    return removed;
  }

  /** A memory the bundle holds (as opened, with what was added since), by id. */
  memory(id: string): Memory | undefined {
    return this.memories.get(id);
  }

  /** A relation the bundle holds (as opened, with what was added since), by id. */
  relation(id: string): Relation | undefined {
    return this.relations.get(id);
  }

  /** Adds PAM relations (by id: one given again replaces itself; none is ever removed). */
  addRelations(relations: Iterable<Relation>): void {
    for (const relation of relations) this.relations.set(relation.id, relation);
  }

  /** Adds or replaces memories (by id); how many were new or differ from what was held. */
  addMemories(memories: readonly Memory[]): number {
    let changed = 0;
    for (const memory of memories) {
      const held = this.memories.get(memory.id);
      // Who may see a memory is its owner's say, not the platform's: a re-import keeps it.
      const access = memory.access ?? held?.access;
      const next = access ? { ...memory, access } : memory;
      if (held === undefined || !sameMemory(held, next)) changed++;
      this.memories.set(memory.id, next);
    }
    return changed;
  }

  /**
   * Writes `memory-store.json`, the memory journal folded in: its changes since the bundle was
   * opened too (a writer kept open across remembers, as `watch` keeps one), then removes it.
   */
  async finish(owner: { id: string; createdAt: string }, exportDate: string): Promise<MemoryStore> {
    const journal = await readMemoryJournal(this.bundle);
    if (journal && journal.base === this.existing?.exportId)
      for (const [id, memory] of journal.memories)
        if (JSON.stringify(this.journalled.get(id)) !== JSON.stringify(memory))
          if (!this.leftOut?.(memory)) this.memories.set(id, memory);
    // Relations are only ever added: the journal's, new or not, are kept.
    if (journal && journal.base === this.existing?.exportId)
      for (const [id, relation] of journal.relations) this.relations.set(id, relation);
    const store = toMemoryStore({
      ownerId: owner.id,
      ownerCreatedAt: this.existing?.owner.created_at ?? owner.createdAt,
      exportDate,
      memories: this.memories.values(),
      relations: this.relations.values(),
      index: this.index.values(),
    });
    await this.files.write(this.bundle.layout.memoryStore, serialize(store));
    await removeMemoryJournal(this.bundle);
    this.existing = { owner: store.owner, exportId: store.export_id };
    this.journalled = new Map();
    return store;
  }
}

/**
 * An attachment copied into an encrypted folder: read whole and sealed (an age file cannot be
 * copied into). One there already is whole (written by rename), so it is kept.
 */
async function copySealed(files: SealedFiles, entry: Entry, target: string): Promise<boolean> {
  if (files.exists(target)) return false;
  await mkdir(dirname(target), { recursive: true });
  const bytes =
    entry.localFile !== undefined
      ? await readFile(entry.localFile)
      : await buffer(await entry.open());
  await files.write(target, bytes, { durable: false, dirExists: true });
  return true;
}

// A process killed mid-write leaves `<file>.<pid>-<n>.tmp` beside the file it was writing (the
// rename never came): removed when no process with that pid is alive.
async function removeStaleTemporaries(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = /\.(\d+)-\d+\.tmp$/.exec(name)?.[1] ?? /\.(\d+)\.[0-9a-f]+\.tmp$/.exec(name)?.[1];
    if (pid === undefined || isAlive(Number(pid))) continue;
    await rm(join(dir, name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
