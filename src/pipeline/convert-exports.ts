import { BundleWriter } from '../bundle/bundle-writer.js';
import { repairDiagnostics } from '../bundle/repair-index.js';
import { ReportBuilder, type ImportReport } from './import-report.js';
import { stableId } from '../model/ids.js';
import { isExportable } from '../model/pam.js';
import { plural } from '../plural.js';
import { timestampOf } from '../model/time.js';
import type { OpenedSource } from '../read/open-source.js';
import { checksumClaims, reportFiles } from './checksum.js';
import { claimInputs, notAnExport, type Claim } from './claim.js';
import { convertClaim } from './convert-claims.js';
import { checkDeliveryManifests, manifestAlone } from './delivery-manifest.js';
import type { ConvertOptions, ImportedFile } from './convert-options.js';
import type { ConvertedConversation } from './convert-record.js';
import { readMemories } from './memories.js';
import { mergeMemoryStores } from './memory-stores.js';
import { recordPamExports } from '../bundle/pam-exports.js';
import { RecordConverter } from './record-converter.js';
import { mergeWithStored } from './merge-stored.js';
import { Settler } from './settle.js';
import { readSideFiles } from './side-files.js';
import { toSinks, writeToBundle } from './write-bundle.js';

/**
 * Reads exports (zips, folders, files), converts every conversation to PAM and writes the
 * bundle, in named stages: claim → checksum → side files → convert on workers → merge with
 * the bundle's copy and settle duplicates → write the bundle → sinks (the store) → memories. One record at a time; results
 * in file order, so output and report are the same whatever the timing.
 */
export async function convertExports(
  inputs: readonly string[],
  options: ConvertOptions,
): Promise<ImportReport> {
  const report = new ReportBuilder(options.out);
  const importedAt = timestampOf(options.importedAt ?? new Date());
  const sources: OpenedSource[] = [];
  let converter: RecordConverter | undefined;
  try {
    const claims = await claimInputs(inputs, sources, report, options.signal);
    const conversationClaims = claims.filter((c) => c.detection.role === 'conversations');
    const delivery = await checkDeliveryManifests(claims, sources, report);
    // A PAM memory store alone (an incremental export of memories) is something to read.
    const stores = claims.some((c) => c.detection.role === 'memory-store');
    if (conversationClaims.length === 0 && !stores) {
      if (delivery.manifests.length > 0 && delivery.missing.length > 0)
        throw manifestAlone(delivery);
      throw await notAnExport(inputs, sources);
    }
    await checksumClaims(conversationClaims, options);
    reportFiles(claims, report);
    const writer = await BundleWriter.open(options.out);
    for (const diagnostic of repairDiagnostics(writer.repaired, options.out))
      report.add(diagnostic);
    const { account, assets, library } = await readSideFiles(claims, sources, report);
    converter = new RecordConverter(options.workers);
    for (const [key, index] of assets) converter.setAssets(key, index.refTable());
    for (const [key, byMessage] of library) converter.setLibrary(key, byMessage);
    const progress = progressOf(conversationClaims, options);
    const settler = new Settler(report, options.deleted);
    const take = async (claim: Claim, arriving: ConvertedConversation): Promise<void> => {
      if (settler.isDeleted(arriving)) return;
      // Several logs of one Claude Code session merge too: each with the copy written before it.
      const merge = mergeWithStored(writer, arriving, { redact: options.redact === true });
      if (!settler.keep(claim, merge)) return;
      const { converted, stored } = merge;
      await writeToBundle(writer, claim, converted, assets.get(claim.sourceKey), report, stored);
      await toSinks(options.sinks, claim, converted);
      progress.conversation();
    };
    for (const claim of conversationClaims) {
      const file = importedFile(claim);
      if (options.skipChecksums?.has(file.checksum)) {
        await skipFile(claim, file, report, options);
        progress.bytes(claim.bytes ?? 0);
        continue;
      }
      await convertClaim(claim, {
        converter,
        report,
        importedAt,
        options,
        onBytes: progress.bytes,
        take,
      });
      await options.onFileImported?.(file);
    }
    await readMemories(claims, writer, report, options.redact === true);
    const merged = await mergeMemoryStores(claims, writer, report, {
      redact: options.redact === true,
      importedAt,
    });
    settler.finish();
    progress.finish();
    const checksums = conversationClaims.map((c) => c.checksum ?? '').sort();
    const ownerId =
      writer.ownerId ?? account?.id ?? merged.ownerId ?? stableId('owner', ...checksums);
    if (options.exportOnly) leaveOutUnexportable(writer, report);
    await writer.finish({ id: ownerId, createdAt: importedAt }, importedAt);
    await recordPamExports(options.out, merged.imported);
    return report.build();
  } finally {
    await converter?.close();
    await Promise.all(sources.map((s) => s.close()));
  }
}

/** The progress of the conversion: bytes read and conversations written. */
function progressOf(
  claims: readonly Claim[],
  options: ConvertOptions,
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

function importedFile(claim: Claim): ImportedFile {
  const { size, crc32 } = claim.entry;
  return {
    ...(size !== undefined ? { size } : {}),
    ...(crc32 !== undefined ? { crc32 } : {}),
    file: claim.entry.displayPath,
    checksum: claim.checksum ?? '',
    provider: claim.provider.name,
  };
}

/** A conversations file imported before and unchanged: said, and not read. */
async function skipFile(
  claim: Claim,
  file: ImportedFile,
  report: ReportBuilder,
  options: ConvertOptions,
): Promise<void> {
  await options.onFileSkipped?.(file);
  report.add({
    level: 'info',
    code: 'file-already-imported',
    message: `skipped: this file (${file.checksum}) was imported before and has not changed`,
    file: claim.entry.displayPath,
  });
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
