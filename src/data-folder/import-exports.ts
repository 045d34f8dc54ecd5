import { withProblems, type ImportReport } from '../pipeline/import-report.js';
import { importPipeline } from '../pipeline/import-pipeline.js';
import { fromBundle, project, toStore } from '../pipeline/import-stages.js';
import {
  fileFingerprint,
  type ConvertOptions,
  type ImportProgress,
} from '../pipeline/convert-options.js';
import { bundleSize } from '../bundle/read-bundle.js';
import { inlineTextReader } from '../bundle/read-inline-text.js';
import type { ImportLedger, Store } from '../stores/store.js';
import { readTombstones, writeTombstones } from '../folder/deleted-conversations.js';
import { waitingOf, type Folder } from '../folder/folder.js';
import type { LockHolder } from '../folder/write-lock.js';
import { discardLockFiles, discardNewData, snapshotDataDir } from './discard-new-data.js';
import { NotAnExportError } from '../pipeline/not-an-export-error.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { syncMemories } from '../recall/sync-memories.js';
import { flushMemories } from '../memory/write-memories.js';
import type { VerifyReport } from '../trust/verify-bundle.js';
import { restoreInputs } from './restore-rules.js';
import { withSignatureNotes } from './signature-notes.js';

/** Options of {@link importExports}. */
export interface ImportOptions extends Omit<ConvertOptions, 'out' | 'skipChecksums'> {
  /** Project tool calls into DecisionTrace/TraceStep (remembered by the store). */
  deep?: boolean;
  /** Read every file again, even one imported before in the same mode (same checksum). */
  force?: boolean;
  /** Bring back conversations deleted with `chatgraph delete` (implies `force`). */
  restore?: boolean;
  /** Called when another writer holds the data folder and this import waits for it. */
  onWait?: ((holder: LockHolder) => void) | undefined;
}

/** An import's report, with what it did to the graph. */
export interface ImportResult extends ImportReport {
  graph: { written: number; unchanged: number; reindexed: boolean };
}

/**
 * The folder's import verb, with the rules every shell's import keeps: deleted conversations
 * stay out unless `restore`, and `restore` with no input reads what can bring them back or
 * says why nothing can (`restoreInputs`); a signed bundle's notes (`withSignatureNotes`) among
 * the report's problems, so the CLI, an upload in the web app and a library caller get them.
 */
export async function importVerb(
  folder: Folder,
  verify: () => Promise<VerifyReport>,
  inputs: readonly string[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  const reading =
    inputs.length === 0 && options.restore === true ? await restoreInputs(folder) : inputs;
  const { result, notes } = await withSignatureNotes(verify, () =>
    importExports(folder, reading, options),
  );
  return notes.length === 0 ? result : { ...result, ...withProblems(result, notes) };
}

/**
 * Imports exports into a data folder: converts them into its PAM bundle (the record), then
 * indexes each conversation in the store (the embedded one, or Neo4j) as it is written. A file
 * imported before (same checksum, same redaction mode) is skipped unless `force`; an unchanged
 * conversation is not rewritten; a deleted one is left out unless `restore`. The store is opened
 * first, so a store that cannot be reached leaves the bundle untouched. Takes the data folder's
 * write lock (a second writer waits).
 */
export async function importExports(
  folder: Folder,
  inputs: readonly string[],
  options: ImportOptions = {},
): Promise<ImportResult> {
  const outside = snapshotDataDir(folder.layout);
  try {
    return await folder.write(async (writing) => {
      // What this import may take back is noted under the lock: a writer that held it first
      // (another import's bundle and store) is never taken for this one's.
      const before = snapshotDataDir(folder.layout);
      try {
        return await importLocked(folder, await writing.store(), inputs, options);
      } catch (error) {
        // Input that is not an export leaves nothing behind (not even an empty store).
        if (error instanceof NotAnExportError) await discardNewData(before);
        throw error;
      }
    }, waitingOf(options));
  } catch (error) {
    if (error instanceof NotAnExportError) await discardLockFiles(outside);
    throw error;
  }
}

async function importLocked(
  folder: Folder,
  store: Store,
  inputs: readonly string[],
  options: ImportOptions,
): Promise<ImportResult> {
  const wasDeep = await store.deep();
  const deep = wasDeep || options.deep === true;
  const hadConversations = (await store.conversationCount()) > 0;
  if (deep !== wasDeep) await store.setDeep(deep);
  const writer = store.writer(deep);
  const { deep: _deep, force, restore, onWait: _onWait, ...convertOptions } = options;
  const tombstones = await readTombstones(folder);
  const restored = new Set<string>();
  let report: ImportReport | undefined;
  const { bundle } = folder;
  const events = importPipeline(
    inputs,
    {
      ...convertOptions,
      bundle,
      ...(await skipping(store, options)),
      ...(restore === true ? {} : { deleted: new Set(tombstones.map((t) => t.id)) }),
    },
    { writer, store, deep, attachmentText: inlineTextReader(bundle) },
  );
  for await (const event of events) {
    if (event.kind === 'stored') restored.add(event.owner);
    else if (event.kind === 'done') report = event.report;
  }
  if (!report) throw new Error('the import ended without its report: this is a bug');
  // Restored: the conversations written again are no longer deleted; the others stay so.
  if (restore === true && tombstones.some((t) => restored.has(t.id)))
    await writeTombstones(
      folder,
      tombstones.filter((t) => !restored.has(t.id)),
    );
  const written = await writer.end();
  // The bundle's memories (an export's, and those remembered) as Memory nodes, with their
  // DERIVED_FROM edges to conversations this import (re)wrote.
  const synced = await syncMemories(store, folder);
  const graph = { ...written, reindexed: false };
  if (deep && !wasDeep && hadConversations) {
    // Conversations indexed before deep mode get their traces.
    await store.clear();
    const { problems } = await loadBundle(folder, store);
    graph.reindexed = true;
    return { ...withProblems(report, problems), graph };
  }
  return { ...withProblems(report, synced.problem ? [synced.problem] : []), graph };
}

/**
 * Which files an import skips, and which it need not hash again. The redaction mode is part of
 * what was imported: a file imported in the other mode is read again (so `--redact` after a
 * plain import masks what it wrote); `force` and `restore` read every file again.
 */
async function skipping(
  store: ImportLedger,
  options: ImportOptions,
): Promise<{ skipChecksums: Set<string>; knownFiles: Map<string, string> }> {
  const files = await store.importedFiles();
  const redacted = options.redact === true;
  const again = options.force === true || options.restore === true;
  return {
    skipChecksums: new Set(
      again ? [] : files.filter((f) => (f.redacted ?? false) === redacted).map((f) => f.checksum),
    ),
    knownFiles: new Map(
      files.flatMap((f) =>
        f.size !== undefined && f.crc32 !== undefined
          ? [[fileFingerprint(f.sourceFile, f.size, f.crc32), f.checksum] as [string, string]]
          : [],
      ),
    ),
  };
}

/**
 * What loading a bundle into a store did: conversations indexed, and the files it left out
 * (not a PAM conversation, or of a provider this version does not know), each named.
 */
export interface BundleLoad {
  conversations: number;
  written: number;
  unchanged: number;
  problems: Diagnostic[];
}

/** Options of {@link reindex} and {@link pushBundle}. */
export interface LoadOptions {
  onProgress?: (progress: ImportProgress) => void;
  /** Called when another writer holds the data folder and this one waits for it. */
  onWait?: ((holder: LockHolder) => void) | undefined;
}

/**
 * Rebuilds the store (embedded, or Neo4j) from the data folder's bundle alone. A damaged
 * embedded store is moved aside first (`chatgraph.sqlite.damaged-<time>`, returned as
 * `movedAside`) and a new one built. Takes the data folder's write lock.
 */
export async function reindex(
  folder: Folder,
  options: LoadOptions = {},
): Promise<BundleLoad & { movedAside?: string }> {
  return folder.write(async (writing) => {
    // Loaded here: SQLite's code is not loaded by importing chatgraph (see openStore).
    const { setAsideIfDamaged } = await import('../stores/sqlite/set-aside-damaged.js');
    // Before the store opens.
    const movedAside = folder.neo4j
      ? undefined
      : await setAsideIfDamaged(folder.layout.store, folder.sqliteKey);
    const store = await writing.store();
    await store.clear();
    const loaded = await loadBundle(folder, store, options.onProgress);
    return { ...loaded, ...(movedAside !== undefined ? { movedAside } : {}) };
  }, waitingOf(options));
}

/**
 * Loads the data folder's bundle into a store, Neo4j usually: conversations already there as
 * they are in the bundle are skipped, so a push that was cut off is completed by the next.
 */
export async function pushBundle(folder: Folder, options: LoadOptions = {}): Promise<BundleLoad> {
  return folder.write(
    async (writing) => loadBundle(folder, await writing.store(), options.onProgress),
    waitingOf(options),
  );
}

async function loadBundle(
  folder: Folder,
  store: Store,
  onProgress?: (progress: ImportProgress) => void,
): Promise<BundleLoad> {
  // The bundle whole first: what a reindex or push reads is `memory-store.json` as it stands.
  await flushMemories(folder);
  const deep = await store.deep();
  const { bundle } = folder;
  const total = onProgress ? await bundleSize(bundle) : { files: 0, bytes: 0 };
  const writer = store.writer(deep);
  // A deletion cut off between its tombstone and the file's removal: the file stays out.
  const deleted = new Set((await readTombstones(folder)).map((t) => t.id));
  let conversations = 0;
  let bytesDone = 0;
  const problems: Diagnostic[] = [];
  const read = fromBundle(bundle, deleted, problems);
  const projected = project(read, { deep, attachmentText: inlineTextReader(bundle) });
  for await (const event of toStore(projected, { writer, store })) {
    if (event.kind !== 'stored') continue;
    conversations++;
    bytesDone += event.written.bytes;
    onProgress?.({ phase: 'push', bytesDone, bytesTotal: total.bytes, conversations });
  }
  const report = await writer.end();
  const synced = await syncMemories(store, folder);
  if (synced.problem) problems.push(synced.problem);
  onProgress?.({ phase: 'finish', bytesDone, bytesTotal: total.bytes, conversations });
  return { conversations, ...report, problems };
}
