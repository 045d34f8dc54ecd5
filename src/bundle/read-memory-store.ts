import { existsSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import type { ConversationIndexEntry, Memory, Relation } from '../model/pam.js';
import type { BundleLayout } from './bundle-layout.js';
import { readMemoryJournal, type JournalPlace, type MemoryJournal } from './memory-journal.js';
import { MemoryStoreError, memorySchema, relationSchema, toMemory } from './memory-schema.js';
import { SEALED_SUFFIX, SealedFileError, type SealedFiles } from './sealed-files.js';
import { openRegular } from '../read/regular-file.js';

export { MemoryStoreError } from './memory-schema.js';

// An entry of `conversations_index` as PAM's schema has it; what we read back we also write.
const indexEntrySchema = z.object({
  id: z.string(),
  platform: z.string(),
  title: z.string().nullable(),
  temporal: z.object({ created_at: z.string(), updated_at: z.string().nullable() }),
  message_count: z.number().int().nonnegative(),
  tags: z.array(z.string()),
  storage: z.object({ type: z.literal('file'), ref: z.string(), format: z.literal('json') }),
}) satisfies z.ZodType<ConversationIndexEntry>;

const storeSchema = z
  .object({
    export_id: z.string().nullish(),
    owner: z.object({ id: z.string(), created_at: z.string() }).passthrough(),
    memories: z.array(memorySchema),
    relations: z.array(relationSchema).nullish(),
    conversations_index: z.array(indexEntrySchema).nullish(),
    signature: z.unknown(),
  })
  .passthrough();

/** The bundle's memories and what else an edit keeps of `memory-store.json`. */
export interface MemoryStoreFile {
  owner: { id: string; created_at: string };
  /** The file's memories with its journal's changes (see MEMORY_JOURNAL_FILE). */
  memories: Memory[];
  /** PAM §13 relations between the memories, the journal's added (none is ever removed). */
  relations: Relation[];
  index: ConversationIndexEntry[];
  /** The file's `export_id`: what a journal names as the file it extends. */
  exportId?: string;
  /** Whether the file has a PAM §18 signature (a change then rewrites it whole, unsigned). */
  signed: boolean;
  /** The journal the memories include, when there is one for this file. */
  journal?: MemoryJournal;
}

type ParsedFile = Omit<MemoryStoreFile, 'journal'>;

/**
 * The memory store parsed last, by the file's identity, kept by the bundle: a long-lived
 * process (a server) parses it again only when another write replaced it, not on every read.
 * Memories are never changed in place.
 */
export class StoreSeen {
  kept: { stamp: string; parsed: ParsedFile } | undefined;
}

/** A bundle's memory store (and its journal) as its readers reach them. */
export interface StorePlace extends JournalPlace {
  layout: Pick<BundleLayout, 'memoryStore' | 'memoryJournal'>;
  storeSeen: StoreSeen;
}

async function parseFile(
  file: string,
  handle: FileHandle,
  files: SealedFiles,
): Promise<ParsedFile> {
  const text = files.plain(file, await handle.readFile()).toString('utf8');
  const parsed = { data: parseStoreText(file, text, storeSchema) };
  const exportId = parsed.data.export_id;
  return {
    owner: { id: parsed.data.owner.id, created_at: parsed.data.owner.created_at },
    memories: parsed.data.memories.map(toMemory),
    relations: parsed.data.relations ?? [],
    index: parsed.data.conversations_index ?? [],
    signed: typeof parsed.data.signature === 'object' && parsed.data.signature !== null,
    ...(typeof exportId === 'string' ? { exportId } : {}),
  };
}

async function readFileParsed(bundle: StorePlace): Promise<ParsedFile | undefined> {
  const file = bundle.layout.memoryStore;
  let handle: FileHandle;
  try {
    // Through the seal: an encrypted folder's `memory-store.json.age`, opened in memory.
    // A regular file only: a FIFO or a device in its place is said, not waited on.
    handle = await openRegular(bundle.files.onDisk(file));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    bundle.storeSeen.kept = undefined;
    return undefined;
  }
  try {
    // Written by rename only (atomically): a new file is a new inode, and its times change.
    const info = await handle.stat({ bigint: true });
    const stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
    const kept = bundle.storeSeen.kept;
    if (kept?.stamp === stamp) return kept.parsed;
    const parsed = await parseFile(file, handle, bundle.files);
    bundle.storeSeen.kept = { stamp, parsed };
    return parsed;
  } finally {
    await handle.close();
  }
}

/**
 * Reads the bundle's memories: `memory-store.json` with the changes of its journal, or
 * undefined when the bundle has none yet.
 */
export async function readMemoryStore(bundle: StorePlace): Promise<MemoryStoreFile | undefined> {
  // The journal first: a writer folding it in meanwhile writes the file before removing the
  // journal, so this reads the journal and the file it extends, or the file that holds it.
  const journal = await readMemoryJournal(bundle);
  const file = bundle.layout.memoryStore;
  const parsed = await readFileParsed(bundle);
  // An encrypted bundle read without its key: its memories are not "none", say so.
  if (!parsed && !bundle.files.sealed && existsSync(`${file}${SEALED_SUFFIX}`))
    throw new SealedFileError(`${file} is encrypted, and its folder's key was not opened`);
  if (!parsed) return undefined;
  const result: MemoryStoreFile = {
    ...parsed,
    memories: parsed.memories,
    relations: [...parsed.relations],
    index: [...parsed.index],
  };
  if (journal === undefined || journal.base !== parsed.exportId) {
    result.memories = [...parsed.memories];
    return result;
  }
  const memories = new Map(parsed.memories.map((m) => [m.id, m]));
  for (const [id, memory] of journal.memories) memories.set(id, memory);
  result.memories = [...memories.values()];
  const relations = new Map(parsed.relations.map((r) => [r.id, r]));
  for (const [id, relation] of journal.relations) relations.set(id, relation);
  result.relations = [...relations.values()];
  result.journal = journal;
  return result;
}

/**
 * A memory store's text parsed with `schema`: not JSON, or JSON of another shape, is a
 * one-line MemoryStoreError naming the file and the first field that is wrong.
 */
export function parseStoreText<T extends z.ZodTypeAny>(
  file: string,
  text: string,
  schema: T,
): z.output<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MemoryStoreError(
      `${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MemoryStoreError(
      `${file} is not a PAM memory store (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'bad shape'})`,
    );
  }
  return parsed.data as z.output<T>;
}
