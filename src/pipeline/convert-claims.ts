import type { ReportBuilder } from './import-report.js';
import { toTimestamp } from '../model/time.js';
import { readRecords } from '../read/read-records.js';
import type { Claim } from './claim.js';
import type { ConvertOptions } from './convert-options.js';
import type { ConvertedConversation, RecordResult, RecordTask } from './convert-record.js';
import { readDiagnostic } from './read-diagnostic.js';
import type { RecordConverter } from './record-converter.js';

/** What the conversion stage is given beside the file. */
export interface ConvertStage {
  converter: RecordConverter;
  report: ReportBuilder;
  importedAt: string;
  options: ConvertOptions;
  /** Bytes of the file read so far (for progress). */
  onBytes: (n: number) => void;
  /** Each converted conversation, in file order. */
  take: (claim: Claim, converted: ConvertedConversation) => Promise<void>;
}

/**
 * Stage 4, convert on workers: each record of a conversations file is converted on a worker
 * thread, a window of them in flight; results are taken in file order, so output and report
 * are the same whatever the timing.
 */
export async function convertClaim(claim: Claim, stage: ConvertStage): Promise<void> {
  const { converter, report, options } = stage;
  const window = Math.max(8, converter.workers * 8);
  const fallbackTime = claim.entry.modified ? toTimestamp(claim.entry.modified) : undefined;
  const queue: Promise<RecordResult>[] = [];
  const takeNext = async (): Promise<void> => {
    const next = queue.shift();
    if (next) await takeResult(claim, await next, stage);
  };
  for await (const item of readRecords(claim.entry, claim.detection.format, stage.onBytes)) {
    options.signal?.throwIfAborted();
    if (item.kind === 'problem') {
      report.add(readDiagnostic(item, claim.entry));
      continue;
    }
    const task: RecordTask = {
      provider: claim.provider.name,
      variant: claim.detection.variant,
      record: item,
      file: claim.entry.displayPath,
      entryPath: claim.entry.path,
      fallbackTime,
      assetsKey: claim.sourceKey,
      importedAt: stage.importedAt,
      checksum: claim.checksum ?? '',
      redact: options.redact === true,
      hash: (options.sinks?.length ?? 0) > 0,
      ...(options.graph ? { graph: options.graph } : {}),
    };
    queue.push(converter.submit(task));
    if (queue.length >= window) await takeNext();
  }
  while (queue.length > 0) await takeNext();
}

async function takeResult(claim: Claim, result: RecordResult, stage: ConvertStage): Promise<void> {
  const { report } = stage;
  for (const diagnostic of result.diagnostics) report.add(diagnostic);
  if (result.redactions) report.addRedactions(result.redactions);
  if (result.skipped) report.summary(claim.provider.name).skipped++;
  for (const conversation of result.conversations) await stage.take(claim, conversation);
}
