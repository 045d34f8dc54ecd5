import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../bundle/atomic-write.js';
import type { Bundle } from '../bundle/bundle.js';
import type { BundleLayout } from '../bundle/bundle-layout.js';
import { parseConversationFile } from '../bundle/conversation-schema.js';
import { toMemoryStore } from '../bundle/memory-store.js';
import { recordPamExports, readPamExports } from '../bundle/pam-exports.js';
import { readMemoryStore } from '../bundle/read-memory-store.js';
import { serialize } from '../bundle/serialize.js';
import { stableId } from '../model/ids.js';
import {
  isExportable,
  type ConversationIndexEntry,
  type Memory,
  type MemoryStore,
  type Relation,
} from '../model/pam.js';
import { timestampOf, toPydanticTime } from '../model/time.js';
import { flushMemories } from '../memory/write-memories.js';
import { dateBound } from '../stores/date-bound.js';
import { waitingOf, type Folder } from '../folder/folder.js';
import { bundleLayout } from '../folder/layout.js';
import type { LockHolder } from '../folder/write-lock.js';

/** Options of {@link exportPam}. */
export interface ExportPamOptions {
  /** The folder to write (made when missing; one with files in it is refused). */
  out: string;
  /** Only what changed at or after this time (as `--since` takes it): an incremental export. */
  since?: string | undefined;
  /** The full export an incremental one extends; by default the last full one written. */
  base?: string | undefined;
  /**
   * Only these conversations and memories (by id): an incremental export of what the caller
   * knows changed (`sync` compares digests, since times do not say what was imported).
   */
  only?: { conversations: ReadonlySet<string>; memories: ReadonlySet<string> } | undefined;
  /** Leave the attachments out (`sync` carries PAM JSON files only). */
  noAttachments?: boolean | undefined;
  now?: () => Date;
  /** Called when another writer holds the data folder and this export waits for it. */
  onWait?: ((holder: LockHolder) => void) | undefined;
}

/** What {@link exportPam} wrote. */
export interface ExportPamReport {
  out: string;
  exportType: 'full' | 'incremental';
  exportId: string;
  baseExportId: string | null;
  memories: number;
  retracted: number;
  conversations: number;
  attachments: number;
  /** Memories their owner marked not exportable, left out (PAM 21.1). */
  notExportable: number;
}

// An export the data folder cannot write as asked (no base, a folder in the way): its reason is
// returned, not thrown, so the shells say it without knowing this class.
class ExportPamError extends Error {
  override readonly name = 'ExportPamError';
}

/**
 * Writes the data folder's memories and conversations as a PAM bundle for another tool: whole,
 * or (with `since`) PAM 16's incremental export of what changed since then, whose
 * `base_export_id` names the full export it extends. Memories marked not exportable stay out.
 */
export async function exportPam(
  folder: Folder,
  options: ExportPamOptions,
): Promise<ExportPamReport | { refused: string }> {
  try {
    return await writeExport(folder, options);
  } catch (error) {
    if (error instanceof ExportPamError) return { refused: error.message };
    throw error;
  }
}

async function writeExport(folder: Folder, options: ExportPamOptions): Promise<ExportPamReport> {
  // Under the write lock: the journal is folded in, and the export recorded in the bundle.
  return folder.write(async () => {
    await flushMemories(folder);
    const { bundle } = folder;
    const file = await readMemoryStore(bundle);
    if (!file)
      throw new ExportPamError(
        `${bundle.dir} has no memory-store.json yet: import something first`,
      );
    // The export is a plain PAM bundle of its own (an encrypted folder's is written plain).
    const out = bundleLayout(options.out);
    await checkOut(out);
    const since =
      options.since === undefined
        ? undefined
        : dateBound(options.since, '--since', options.now?.() ?? new Date());
    const { only } = options;
    const base =
      since === undefined && only === undefined ? null : await baseOf(bundle, options.base);
    const changed = (time: string): boolean => since === undefined || time >= since;
    const exportable = file.memories.filter(isExportable);
    const memories = exportable.filter((m) =>
      only ? only.memories.has(m.id) : changed(m.temporal.updated_at ?? m.temporal.created_at),
    );
    const index = indexOf(file.index, memories, (time, id) =>
      only ? only.conversations.has(id) : changed(time),
    );
    const now = toPydanticTime(timestampOf(options.now?.() ?? new Date()));
    const store = storeOf(
      file.owner,
      { memories, relations: file.relations },
      index,
      now,
      base,
      since,
    );
    const attachments = await copyConversations(bundle, out, index, options.noAttachments === true);
    await writeFileAtomic(out.memoryStore, serialize(store));
    await recordPamExports(bundle, [
      {
        export_id: store.export_id,
        export_type: base === null ? 'full' : 'incremental',
        export_date: store.export_date,
        base_export_id: base,
        direction: 'written',
        file: options.out,
        at: now,
        owner_id: file.owner.id,
      },
    ]);
    return {
      out: options.out,
      exportType: base === null ? 'full' : 'incremental',
      exportId: store.export_id,
      baseExportId: base,
      memories: memories.length,
      retracted: memories.filter((m) => m.status === 'retracted').length,
      conversations: index.length,
      attachments,
      notExportable: file.memories.length - exportable.length,
    };
  }, waitingOf(options));
}

// The conversations changed, and those a memory of the export names (PAM 14: a memory's
// conversation_ref must be in the index when there is one).
function indexOf(
  all: readonly ConversationIndexEntry[],
  memories: readonly Memory[],
  changed: (time: string, id: string) => boolean,
): ConversationIndexEntry[] {
  const named = new Set(memories.map((m) => m.provenance.conversation_ref));
  return all.filter(
    (e) => changed(e.temporal.updated_at ?? e.temporal.created_at, e.id) || named.has(e.id),
  );
}

function storeOf(
  owner: { id: string; created_at: string },
  // Relations go with their memories: one whose other end the export leaves out is left out.
  { memories, relations }: { memories: readonly Memory[]; relations: readonly Relation[] },
  index: readonly ConversationIndexEntry[],
  now: string,
  base: string | null,
  since: string | undefined,
): MemoryStore {
  const store = toMemoryStore({
    ownerId: owner.id,
    ownerCreatedAt: owner.created_at,
    exportDate: now,
    memories,
    relations,
    index,
  });
  if (base === null) return store;
  return {
    ...store,
    // Not the id a full export of the same memories would have.
    export_id: stableId('incremental-export', base, since ?? '', store.export_id),
    export_type: 'incremental',
    base_export_id: base,
  };
}

async function baseOf(bundle: Bundle, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const fulls = (await readPamExports(bundle)).filter(
    (e) => e.export_type === 'full' && e.direction === 'written',
  );
  const last = fulls.at(-1);
  if (!last)
    throw new ExportPamError(
      'an incremental export extends a full one, and this data folder has written none: run export-pam without --since first (or name the base with --base <export id>)',
    );
  return last.export_id;
}

async function checkOut(out: BundleLayout): Promise<void> {
  let names: string[] = [];
  try {
    names = await readdir(out.dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (names.length > 0)
    throw new ExportPamError(
      `${out.dir} is not empty: export-pam writes a new bundle into an empty folder`,
    );
  await mkdir(out.conversations, { recursive: true });
}

/** An attachment copied out of the bundle, opened first when the folder is encrypted. */
async function copyAttachment(bundle: Bundle, from: string, to: string): Promise<void> {
  if (bundle.files.sealed) await writeFile(to, await bundle.files.read(from));
  else await copyFile(from, to);
}

// Each conversation's file as the bundle has it, and the attachment files it points to.
async function copyConversations(
  bundle: Bundle,
  out: BundleLayout,
  index: readonly ConversationIndexEntry[],
  noAttachments: boolean,
): Promise<number> {
  let attachments = 0;
  for (const entry of index) {
    // Through the seal: an encrypted folder's export is written plain (docs/encryption.md).
    const text = (await bundle.files.read(bundle.layout.conversation(entry.id))).toString('utf8');
    await writeFileAtomic(out.conversation(entry.id), text, { durable: false });
    const parsed = parseConversationFile(text);
    if (!parsed.ok || noAttachments) continue;
    for (const message of parsed.conversation.messages)
      for (const attachment of message.attachments) {
        const from = attachment.ref === null ? undefined : bundle.layout.attachment(attachment.ref);
        const to = attachment.ref === null ? undefined : out.attachment(attachment.ref);
        if (from === undefined || to === undefined) continue;
        await mkdir(dirname(to), { recursive: true });
        await copyAttachment(bundle, from, to).then(
          () => attachments++,
          () => undefined,
        );
      }
  }
  return attachments;
}
