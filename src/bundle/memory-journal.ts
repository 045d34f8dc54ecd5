import { randomUUID } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import type { Memory, Relation } from '../model/pam.js';
import { MemoryStoreError, memorySchema, relationSchema, toMemory } from './memory-schema.js';
import type { BundleLayout } from './bundle-layout.js';
import type { SealedFiles } from './sealed-files.js';

/*
 * The memory journal (`layout.memoryJournal`): the memories changed since `memory-store.json`
 * was last written whole, beside it in the bundle: a header line naming the file it extends,
 * then one JSON line per change. The official validator reads only `memory-store.json` and
 * `conversations/*.json`, so it is left out of validation as `embeddings.json` is.
 */

/** When a journal this long is folded into `memory-store.json` by the next change. */
export const MEMORY_JOURNAL_LIMIT = { changes: 500, bytes: 4 * 1024 * 1024 } as const;

/** A journal as read: what it changes, and where its last whole line ends. */
export interface MemoryJournal {
  /** The `export_id` of the `memory-store.json` it extends (another file's, and it is stale). */
  base: string;
  /** The memories it changes, by id, each as its last change left it. */
  memories: ReadonlyMap<string, Memory>;
  /** The relations it adds, by id. */
  relations: ReadonlyMap<string, Relation>;
  /** How many changes (lines after the header). */
  changes: number;
  /** Bytes up to the end of the last whole line: a line cut off by a kill is past it. */
  bytes: number;
}

const headerSchema = z.object({
  chatgraph_memory_journal: z.literal(1),
  id: z.string(),
  base: z.string(),
});
// A change's relations are left out when it adds none (and in journals written before them).
const changeSchema = z.object({
  memories: z.array(memorySchema),
  relations: z.array(relationSchema).optional(),
});

interface Known extends MemoryJournal {
  header: string;
  dev: number;
  ino: number;
  lines: number;
}

/**
 * What was read of a bundle's journal, kept by the bundle: a long-lived process reads only what
 * was appended since it last looked (the header's random id tells a journal from a new one that
 * got the same inode).
 */
export class JournalSeen {
  known: Known | undefined;
}

/** A bundle's journal as its readers and writer reach it. */
export interface JournalPlace {
  layout: Pick<BundleLayout, 'memoryJournal'>;
  files: SealedFiles;
  journalSeen: JournalSeen;
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}

/** A journal's bytes as read: the file through a handle, or a sealed file opened in memory. */
interface JournalBytes {
  info: { size: number; dev: number; ino: number };
  readAt(position: number, length: number): Promise<Buffer>;
  close(): Promise<void>;
}

async function openJournal(file: string, files: SealedFiles): Promise<JournalBytes | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(files.onDisk(file), 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return undefined;
  }
  const info = await handle.stat();
  if (!files.sealed)
    return {
      info,
      readAt: (at, length) => readAt(handle, at, length),
      close: () => handle.close(),
    };
  // An age file is read whole and opened (a rewrite is a new inode, so nothing stale is kept).
  let content: Buffer;
  try {
    content = files.plain(file, await handle.readFile());
  } finally {
    await handle.close();
  }
  return {
    info: { size: content.length, dev: info.dev, ino: info.ino },
    readAt: (at, length) => Promise.resolve(content.subarray(at, at + length)),
    close: () => Promise.resolve(),
  };
}

function parseLine<T>(
  file: string,
  line: number,
  text: string,
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
): T {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MemoryStoreError(
      `${file} line ${String(line)} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MemoryStoreError(
      `${file} line ${String(line)} is not a memory change (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'bad shape'})`,
    );
  }
  return parsed.data;
}

/** Reads the bundle's memory journal, or undefined when there is none. */
export async function readMemoryJournal(bundle: JournalPlace): Promise<MemoryJournal | undefined> {
  const file = bundle.layout.memoryJournal;
  const handle = await openJournal(file, bundle.files);
  if (!handle) {
    bundle.journalSeen.known = undefined;
    return undefined;
  }
  try {
    const info = handle.info;
    let before = bundle.journalSeen.known;
    if (
      before &&
      (before.dev !== info.dev ||
        before.ino !== info.ino ||
        info.size < before.bytes ||
        (await handle.readAt(0, Buffer.byteLength(before.header))).toString('utf8') !==
          before.header)
    )
      before = undefined;
    const from = before?.bytes ?? 0;
    const tail = await handle.readAt(from, info.size - from);
    const end = tail.lastIndexOf(0x0a) + 1;
    const lines = tail.subarray(0, end).toString('utf8').split('\n').slice(0, -1);
    let state: Known | undefined = before && {
      ...before,
      memories: new Map(before.memories),
      relations: new Map(before.relations),
    };
    for (const text of lines) {
      if (!state) {
        const header = parseLine(file, 1, text, headerSchema);
        state = {
          base: header.base,
          memories: new Map(),
          relations: new Map(),
          changes: 0,
          bytes: 0,
          header: `${text}\n`,
          dev: info.dev,
          ino: info.ino,
          lines: 1,
        };
        continue;
      }
      state.lines++;
      const change = parseLine(file, state.lines, text, changeSchema);
      const memories = state.memories as Map<string, Memory>;
      for (const raw of change.memories) memories.set(raw.id, toMemory(raw));
      const relations = state.relations as Map<string, Relation>;
      for (const relation of change.relations ?? []) relations.set(relation.id, relation);
      state.changes++;
    }
    // A journal is made whole with its header (written atomically): none means none yet.
    if (!state) return undefined;
    state.bytes = from + end;
    bundle.journalSeen.known = state;
    return {
      base: state.base,
      memories: state.memories,
      relations: state.relations,
      changes: state.changes,
      bytes: state.bytes,
    };
  } finally {
    await handle.close();
  }
}

/** The line a change is journalled as (its length decides when the journal is folded). */
export function journalLine(
  memories: readonly Memory[],
  relations: readonly Relation[] = [],
): string {
  return `${JSON.stringify(relations.length > 0 ? { memories, relations } : { memories })}\n`;
}

/**
 * Appends one change (memories as `memory-store.json` will hold them) to the journal, flushed
 * to the disk before it returns; run by the data folder's writer only (under the write lock),
 * with the journal as it read it. A journal missing or of another file is started anew.
 */
export async function appendMemoryJournal(
  bundle: JournalPlace,
  base: string,
  journal: MemoryJournal | undefined,
  line: string,
): Promise<void> {
  const file = bundle.layout.memoryJournal;
  const { files } = bundle;
  if (journal?.base !== base) {
    const header = JSON.stringify({ chatgraph_memory_journal: 1, id: randomUUID(), base });
    await files.write(file, `${header}\n${line}`, { dirExists: true });
    return;
  }
  if (files.sealed) {
    // An age file cannot be appended to: written again whole, its cut-off tail dropped.
    const kept = (await files.read(file)).subarray(0, journal.bytes);
    await files.write(file, Buffer.concat([kept, Buffer.from(line, 'utf8')]), {
      dirExists: true,
    });
    return;
  }
  const handle = await open(file, 'r+');
  try {
    // A line cut off by a kill was never acknowledged: it goes, so this one is a line of its own.
    if ((await handle.stat()).size !== journal.bytes) await handle.truncate(journal.bytes);
    const bytes = Buffer.from(line, 'utf8');
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await handle.write(
        bytes,
        done,
        bytes.length - done,
        journal.bytes + done,
      );
      done += bytesWritten;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Removes the journal once `memory-store.json` holds what it said. A journal that outlives
 * this (a kill right before) names the file before, so it is read as stale, never twice.
 */
export async function removeMemoryJournal(bundle: JournalPlace): Promise<void> {
  await bundle.files.remove(bundle.layout.memoryJournal);
  bundle.journalSeen.known = undefined;
}
