import type { BundleWriter } from '../bundle/bundle-writer.js';
import { contentHashOfText } from '../bundle/conversation-text.js';
import type { Bundle } from '../bundle/bundle.js';
import { readBundleConversations } from '../bundle/read-bundle.js';
import type { GraphBatch } from '../graph/graph-batch.js';
import { importIdOf } from '../graph/import-id.js';
import { projectConversation } from '../graph/project-conversation.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Conversation } from '../model/pam.js';
import { IMPORTER } from '../model/version.js';
import type { Provider } from '../providers/provider.js';
import { findProvider } from '../providers/registry.js';
import type { AssetIndex } from '../read/asset-index.js';
import type { ConversationIndexEntry } from '../model/pam.js';
import type { WriteOutcome } from '../bundle/bundle-writer.js';
import type { GraphWriter, HashedBatch, ImportLedger, ImportRecord } from '../stores/store.js';
import type { Claim } from './claim.js';
import { convertFile, type ConvertStage } from './convert-claims.js';
import type { LiveStoreWriter, SettledStep, StepConversation } from './live-store-writer.js';
import type { ConvertedConversation } from './convert-record.js';
import type { ReportBuilder } from './import-report.js';
import { keepApart } from './keep-apart.js';
import { mergeWithStored } from './merge-stored.js';
import { AttachmentPlaces } from './place-attachments.js';
import type { Settler } from './settle.js';
import { writeToBundle } from './write-bundle.js';
import { parseWrittenConversation } from './written-conversation.js';

// The import's stages, each a function from one stream to the next: claims → convert → settle →
// toBundle → project → toStore. Control flows down: the last stage pulls, one conversation at
// a time (back-pressure: nothing is read before the stages below asked for it), and what
// becomes of each conversation and file travels down the stream as a value, not as a callback
// up. `importPipeline` (import-pipeline.ts) composes them for `import` and `convert`; `reindex`
// and `push` run fromBundle → project → toStore; `watch` a log's steps down toStore, and its
// settled files down toBundle → project → toStore.

/** What a stage reads: the stream of the stage above (or, for a few values at hand, a list). */
export type Source<T> = AsyncIterable<T> | Iterable<T>;

/** A file of an export, done: recorded in the store once its conversations are there. */
export type FileEvent =
  | { kind: 'file-imported'; record: ImportRecord }
  /** Imported before and unchanged: not read (its fingerprint is remembered, when zipped). */
  | { kind: 'file-skipped'; record: ImportRecord }
  /** A followed log's conversations, written: its earlier checksums go (see `Store.dropStaleImports`). */
  | { kind: 'log-written'; record: ImportRecord };

/** A conversation converted from a file of an export. */
export interface Converted {
  kind: 'converted';
  claim: Claim;
  conversation: ConvertedConversation;
}

/** A converted conversation to write, merged with the bundle's copy (`stored`: that file's text). */
export interface Settled {
  kind: 'settled';
  claim: Claim;
  conversation: ConvertedConversation;
  stored: { text: string | undefined };
}

/** A conversation as the bundle holds it, ready to project. */
export interface Written {
  kind: 'written';
  id: string;
  /** Its own platform's provider (a PAM file's conversation is not the claiming `pam`'s). */
  provider: Pick<Provider, 'source' | 'label' | 'fileTools' | 'conversationUrl'>;
  /**
   * The hash of its content, import metadata aside (equal: nothing changed); made on first use,
   * so a `convert` with no store hashes nothing the worker did not.
   */
  contentHash: () => string;
  /** The checksum of the file it came from, when that is not the conversation's own. */
  checksum: string | undefined;
  /** Its graph, when the worker projected it already. */
  batch: GraphBatch | undefined;
  /** The conversation itself (parsed on first use). */
  conversation: () => Conversation;
  /** Bytes of its bundle file read (progress of a push). */
  bytes: number;
}

/** A conversation's graph, ready for the store. */
export interface Projected {
  kind: 'projected';
  written: Written;
  batch: HashedBatch;
}

/** A conversation's graph, in the store. */
export interface Stored {
  kind: 'stored';
  written: Written;
  /** The conversation's id in the graph. */
  owner: string;
}

/**
 * A followed log's conversation as of a step of its conversion, for the store (at the cost of
 * what changed: see `LiveStoreWriter`); `settled`, the step again with its Document and content
 * hash; `bundled`, what its bundle file became when it was written first.
 */
export interface Step {
  kind: 'step';
  conversation: StepConversation;
  settled?: SettledStep | undefined;
  bundled?: WriteOutcome | undefined;
}

/** A step in the store, and whether that changed it. */
export interface Stepped {
  kind: 'stepped';
  step: Step;
  outcome: 'written' | 'unchanged';
}

/**
 * A followed log's conversation settled (live/): its bundle file's text made, nothing to copy;
 * `known`, the content hash of what this process last wrote of it (equal: the file is as it
 * stands). The bundle stage hands its `step` on to the store.
 */
export interface Grown {
  kind: 'grown';
  step: Step;
  text: Uint8Array;
  contentHash: string;
  index: ConversationIndexEntry;
  known: string | undefined;
}

/**
 * Stage convert: the conversations of each file, in file order, then the file done; a file
 * imported before (its checksum in `skip`) is said and not read.
 */
export async function* convert(
  claims: readonly Claim[],
  stage: ConvertStage & { skip?: ReadonlySet<string> | undefined },
): AsyncGenerator<Converted | FileEvent> {
  for (const claim of claims) {
    const record = importRecordOf(claim, stage);
    if (stage.skip?.has(record.checksum)) {
      stage.report.add({
        level: 'info',
        code: 'file-already-imported',
        message: `skipped: this file (${record.checksum}) was imported before and has not changed`,
        file: claim.entry.displayPath,
      });
      stage.onBytes(claim.bytes ?? 0);
      yield { kind: 'file-skipped', record };
      continue;
    }
    for await (const conversation of convertFile(claim, stage))
      yield { kind: 'converted', claim, conversation };
    yield { kind: 'file-imported', record };
  }
}

function importRecordOf(claim: Claim, stage: ConvertStage): ImportRecord {
  const { size, crc32 } = claim.entry;
  const checksum = claim.checksum ?? '';
  return {
    id: importIdOf(checksum),
    sourceFile: claim.entry.displayPath,
    checksum,
    importer: IMPORTER,
    importedAt: stage.importedAt,
    ...(size !== undefined ? { size } : {}),
    ...(crc32 !== undefined ? { crc32 } : {}),
    redacted: stage.redact,
  };
}

/**
 * Stage settle: a conversation deleted with `chatgraph delete` is left out; one that comes with
 * the id of another conversation of the bundle (another platform, platform id or account: see
 * `keepApart`) gets an id of its own, and an attachment file with the name of another file there
 * a place of its own (`AttachmentPlaces`); one already in the bundle is merged with its copy there, and left out when that copy stays as it was (see
 * `Settler`). Several logs of one Claude Code session merge too: each with the copy before it.
 */
export async function* settle(
  source: Source<Converted | FileEvent>,
  writer: BundleWriter,
  settler: Settler,
  options: { redact: boolean; assets: ReadonlyMap<string, AssetIndex> },
): AsyncGenerator<Settled | FileEvent> {
  const { redact, assets } = options;
  const places = new AttachmentPlaces(writer);
  for await (const item of source) {
    if (item.kind !== 'converted') {
      yield item;
      continue;
    }
    if (settler.isDeleted(item.conversation)) continue;
    const { apart, stored } = keepApart(writer, item.conversation);
    if (apart) settler.keptApart(item.claim, apart);
    const placed = await places.place(
      apart?.converted ?? item.conversation,
      assets.get(item.claim.sourceKey),
    );
    const merge = mergeWithStored(writer, placed, { redact, stored });
    if (!settler.keep(item.claim, merge)) continue;
    yield {
      kind: 'settled',
      claim: item.claim,
      conversation: merge.converted,
      stored: merge.stored,
    };
  }
}

/**
 * Stage toBundle: each conversation's attachments, attached texts and file, into the bundle; a
 * followed log's grown one, its file only (rewritten as it stands when this process wrote the
 * version before, not read again), unless it is unchanged.
 */
export async function* toBundle(
  source: Source<Settled | Grown | FileEvent>,
  writer: BundleWriter,
  assets: ReadonlyMap<string, AssetIndex>,
  report: ReportBuilder | undefined,
): AsyncGenerator<Written | Step | FileEvent> {
  for await (const item of source) {
    if (item.kind === 'grown') {
      const { id } = item.step.conversation;
      const { text, contentHash, index, known } = item;
      const bundled =
        known === contentHash
          ? undefined
          : known !== undefined
            ? writer.putConversation(id, text, index)
            : writer.writeConversation(id, text, contentHash, index);
      yield { ...item.step, bundled };
      continue;
    }
    if (item.kind !== 'settled') {
      yield item;
      continue;
    }
    const { claim, conversation, stored } = item;
    if (!report) throw new Error('a conversation of an export was written without a report');
    await writeToBundle(writer, claim, conversation, assets.get(claim.sourceKey), report, stored);
    yield writtenOf(claim, conversation);
  }
}

function writtenOf(claim: Claim, converted: ConvertedConversation): Written {
  let parsed: Conversation | undefined;
  const { text, id } = converted;
  return {
    kind: 'written',
    id,
    provider: findProvider(converted.platform) ?? claim.provider,
    contentHash: () => converted.contentHash ?? contentHashOfText(text),
    checksum: claim.checksum ?? '',
    batch: converted.batch,
    // Text this process wrote from a conversation it built: parsed back only if asked.
    conversation: () => (parsed ??= parseWrittenConversation(text, id)),
    bytes: 0,
  };
}

/**
 * Stage fromBundle: the conversations a bundle holds, as written (for `reindex` and `push`),
 * then the import of each file they came from; a deleted one (`deleted`: a deletion cut off
 * between its tombstone and the file's removal) stays out, and a file that cannot be read, or
 * of a provider this version does not know, is put in `problems`.
 */
export async function* fromBundle(
  bundle: Bundle,
  deleted: ReadonlySet<string>,
  problems: Diagnostic[],
): AsyncGenerator<Written | FileEvent> {
  const imports = new Map<string, ImportRecord>();
  for await (const { conversation, text, bytes, path } of readBundleConversations(bundle, (p) =>
    problems.push(p),
  )) {
    if (deleted.has(conversation.id)) continue;
    const provider = findProvider(conversation.provider.name);
    if (!provider) {
      problems.push({
        level: 'error',
        code: 'unknown-provider',
        message: `this conversation's provider "${conversation.provider.name}" is not one chatgraph knows (a newer version wrote it?); left out of the index`,
        file: path,
      });
      continue;
    }
    const meta = conversation.import_metadata;
    const checksum = meta?.source_checksum;
    if (meta && checksum && !imports.has(checksum))
      imports.set(checksum, {
        id: importIdOf(checksum),
        checksum,
        sourceFile: meta.source_file,
        importer: meta.importer,
        importedAt: meta.imported_at,
      });
    const hash = contentHashOfText(text);
    yield {
      kind: 'written',
      id: conversation.id,
      provider,
      contentHash: () => hash,
      checksum: undefined,
      batch: undefined,
      conversation: () => conversation,
      bytes,
    };
  }
  for (const record of imports.values()) yield { kind: 'file-imported', record };
}

/**
 * Stage project: each conversation's graph (the worker's, when it made it), with its hash; a
 * followed log's step comes projected already (its conversion keeps the graph as it grows).
 */
export async function* project(
  source: Source<Written | Step | FileEvent>,
  options: { deep: boolean; attachmentText: (ref: string) => string | undefined },
): AsyncGenerator<Projected | Step | FileEvent> {
  for await (const item of source) {
    if (item.kind !== 'written') {
      yield item;
      continue;
    }
    const batch =
      item.batch ??
      projectConversation(item.conversation(), item.provider, {
        deep: options.deep,
        ...(item.checksum !== undefined ? { checksum: item.checksum } : {}),
        attachmentText: options.attachmentText,
      });
    yield { kind: 'projected', written: item, batch: { ...batch, hash: item.contentHash() } };
  }
}

/** Where the toStore stage writes: the store's writer, a followed log's steps, and the store itself. */
export interface StoreTarget {
  writer?: GraphWriter | undefined;
  steps?: LiveStoreWriter | undefined;
  store: Pick<ImportLedger, 'recordImport' | 'recordFingerprint' | 'dropStaleImports'>;
}

/**
 * Stage toStore: each conversation's graph into the store (a followed log's, as a step at the
 * cost of what changed); a file counts as imported only once its conversations are there (the
 * writer flushed first).
 */
export async function* toStore(
  source: Source<Projected | Step | FileEvent>,
  target: StoreTarget,
): AsyncGenerator<Stored | Stepped | FileEvent> {
  const { writer, steps } = target;
  for await (const item of source) {
    if (item.kind === 'projected') {
      if (!writer) throw new Error('a conversation reached the store without its writer');
      await writer.write(item.batch);
      yield { kind: 'stored', written: item.written, owner: item.batch.owner };
    } else if (item.kind === 'step') {
      if (!steps) throw new Error('a step reached the store without its step writer');
      const { conversation, settled } = item;
      const outcome = await (settled
        ? steps.settled(conversation, settled)
        : steps.step(conversation));
      yield { kind: 'stepped', step: item, outcome };
    } else {
      await recordFile(item, target);
      yield item;
    }
  }
}

async function recordFile(item: FileEvent, { writer, store }: StoreTarget): Promise<void> {
  const { record } = item;
  if (item.kind === 'file-skipped') {
    if (record.size !== undefined && record.crc32 !== undefined)
      await store.recordFingerprint(record.checksum, record.size, record.crc32);
    return;
  }
  await writer?.flush();
  await store.recordImport(record);
  if (item.kind === 'log-written') await store.dropStaleImports(record.sourceFile, record.id);
}
