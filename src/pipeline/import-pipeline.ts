import type { Bundle } from '../bundle/bundle.js';
import type { EntryRole } from '../providers/provider.js';
import { BundleWriter } from '../bundle/bundle-writer.js';
import { recordPamExports } from '../bundle/pam-exports.js';
import { repairDiagnostics } from '../bundle/repair-index.js';
import { stableId } from '../model/ids.js';
import { isExportable } from '../model/pam.js';
import { plural } from '../model/plural.js';
import { timestampOf } from '../model/time.js';
import type { OpenedSource } from '../read/open-source.js';
import { checksumClaims, reportFiles } from './checksum.js';
import { claimInputs, notAnExport, type Claim } from './claim.js';
import type { ConvertOptions } from './convert-options.js';
import {
  convert,
  project,
  settle,
  toBundle,
  toStore,
  type FileEvent,
  type Step,
  type Stepped,
  type StoreTarget,
  type Stored,
  type Written,
} from './import-stages.js';
import { ReportBuilder, type ImportReport } from './import-report.js';
import type { NotAnExportError } from './not-an-export-error.js';
import {
  checkDeliveryManifests,
  exportManifestAlone,
  manifestAlone,
  type DeliveryCheck,
} from './delivery-manifest.js';
import { readMemories } from './memories.js';
import { mergeMemoryStores } from './memory-stores.js';
import { RecordConverter } from './record-converter.js';
import { onlyUnreadable, reportUnreadable } from './unreadable-stores.js';
import { Settler } from './settle.js';
import { readSideFiles } from './side-files.js';

/** The store an import indexes into, as it writes the bundle (see {@link importPipeline}). */
export interface PipelineStore extends StoreTarget {
  /** Whether tool calls are projected into traces. */
  deep: boolean;
  /** The text behind an attachment's `ref` in the bundle, for the projection. */
  attachmentText: (ref: string) => string | undefined;
}

/** What the pipeline takes: the conversion's options, with the bundle it writes opened (its `out`). */
export interface PipelineOptions extends Omit<ConvertOptions, 'out'> {
  bundle: Bundle;
}

/**
 * What an import tells as it goes: each conversation written (and stored), each file done, then
 * its report. (A followed log's steps share the stages' streams but never come from an export.)
 */
export type ImportEvent =
  Written | Stored | Step | Stepped | FileEvent | { kind: 'done'; report: ImportReport };

const MEMORY_ROLES: ReadonlySet<EntryRole> = new Set(['memory-store', 'memories', 'projects']);

/**
 * The import, composed once: reads exports (zips, folders, files) and runs each conversation
 * down the stages of import-stages.ts — claim → checksum → side files → convert on workers →
 * settle (merged with the bundle's copy, duplicates and deleted ones settled) → toBundle →
 * project → toStore (when given a store) — then the memories, and the bundle's index. The
 * consumer pulls: one conversation at a time, in file order, so output and report are the same
 * whatever the timing. Ends with the report (`done`).
 */
export async function* importPipeline(
  inputs: readonly string[],
  options: PipelineOptions,
  store?: PipelineStore,
): AsyncGenerator<ImportEvent> {
  const { bundle } = options;
  const report = new ReportBuilder(bundle.dir);
  const importedAt = timestampOf(options.importedAt ?? new Date());
  const sources: OpenedSource[] = [];
  let converter: RecordConverter | undefined;
  try {
    const claims = await claimInputs(inputs, sources, report, options.signal);
    const conversationClaims = claims.filter((c) => c.detection.role === 'conversations');
    const delivery = await checkDeliveryManifests(claims, sources, report);
    // Memories alone are something to read: a PAM memory store (an incremental export of
    // memories), or Claude.ai's memories.json and projects given without any conversation.
    const stores = claims.some((c) => MEMORY_ROLES.has(c.detection.role));
    const unreadable = reportUnreadable(claims, report);
    if (conversationClaims.length === 0 && !stores) {
      const refusal = await nothingToRead(inputs, sources, delivery, unreadable);
      report.add({ level: 'error', code: 'not-an-export', message: refusal.message });
      refusal.report = report.build();
      throw refusal;
    }
    await checksumClaims(conversationClaims, options);
    reportFiles(claims, report);
    const writer = await BundleWriter.open(bundle);
    for (const diagnostic of repairDiagnostics(writer.repaired, bundle)) report.add(diagnostic);
    const { account, assets, library } = await readSideFiles(claims, sources, report);
    // With no store, the main thread has time to convert records too (see RecordConverter).
    converter = new RecordConverter(options.workers, store === undefined);
    for (const [key, index] of assets) converter.setAssets(key, index.refTable());
    for (const [key, byMessage] of library) converter.setLibrary(key, byMessage);
    const progress = progressOf(conversationClaims, options);
    const settler = new Settler(report, options.deleted);
    const redact = options.redact === true;
    const converted = convert(conversationClaims, {
      converter,
      report,
      importedAt,
      redact,
      // The worker hashes and projects each conversation (it has it parsed already) for the store.
      hash: store !== undefined,
      graph: store ? { deep: store.deep } : undefined,
      onBytes: progress.bytes,
      signal: options.signal,
      skip: options.skipChecksums,
    });
    const written = toBundle(
      settle(converted, writer, settler, { redact, assets }),
      writer,
      assets,
      report,
    );
    for await (const event of store ? toStore(project(written, store), store) : written) {
      if (event.kind === 'written' || event.kind === 'stored') progress.conversation();
      yield event;
    }
    await readMemories(claims, writer, report, redact);
    const merged = await mergeMemoryStores(claims, writer, report, {
      redact,
      importedAt,
      accountId: account?.id,
      keptApart: settler.apartIds,
    });
    settler.finish();
    progress.finish();
    const checksums = conversationClaims.map((c) => c.checksum ?? '').sort();
    const ownerId =
      writer.ownerId ?? account?.id ?? merged.ownerId ?? stableId('owner', ...checksums);
    if (options.exportOnly) leaveOutUnexportable(writer, report);
    await writer.finish({ id: ownerId, createdAt: importedAt }, importedAt);
    await recordPamExports(bundle, merged.imported);
    yield { kind: 'done', report: report.build() };
  } finally {
    await converter?.close();
    await Promise.all(sources.map((s) => s.close()));
  }
}

/** Why nothing given can be read: a manifest alone, a store we cannot read, or no export. */
async function nothingToRead(
  inputs: readonly string[],
  sources: readonly OpenedSource[],
  delivery: DeliveryCheck,
  unreadable: ReturnType<typeof reportUnreadable>,
): Promise<NotAnExportError> {
  const exportManifest = delivery.exportManifests[0];
  if (delivery.manifests.length > 0 && delivery.missing.length > 0) return manifestAlone(delivery);
  if (unreadable !== undefined) return onlyUnreadable(unreadable);
  if (exportManifest) return exportManifestAlone(exportManifest);
  return notAnExport(inputs, sources);
}

/** The progress of the conversion: bytes read and conversations written. */
function progressOf(
  claims: readonly Claim[],
  options: PipelineOptions,
): { bytes: (n: number) => void; conversation: () => void; finish: () => void } {
  const bytesTotal = claims.reduce((sum, c) => sum + (c.bytes ?? 0), 0);
  let bytesDone = 0;
  let conversations = 0;
  return {
    bytes: (n) => {
      bytesDone += n;
    },
    conversation: () => {
      conversations++;
      options.onProgress?.({ phase: 'convert', bytesDone, bytesTotal, conversations });
    },
    finish: () => {
      options.onProgress?.({ phase: 'finish', bytesDone: bytesTotal, bytesTotal, conversations });
    },
  };
}

/** An export leaves out the memories their owner marked not exportable (PAM §21.1). */
function leaveOutUnexportable(writer: BundleWriter, report: ReportBuilder): void {
  const left = writer.removeMemories((memory) => !isExportable(memory));
  if (left > 0)
    report.add({
      level: 'info',
      code: 'memory-not-exportable',
      message: `${plural(left, 'memory', 'memories')} marked access.exportable false left out of this export (PAM 21.1)`,
      file: writer.dir,
    });
}
