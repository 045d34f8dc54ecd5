import { resolve } from 'node:path';
import type { ReportBuilder } from './import-report.js';
import { toTimestamp } from '../model/time.js';
import { readRecords } from '../read/read-records.js';
import type { Claim } from './claim.js';
import type { ConvertedConversation, RecordResult, RecordTask } from './convert-record.js';
import { readDiagnostic } from './read-diagnostic.js';
import type { RecordConverter } from './record-converter.js';

/** What the conversion of a file is given beside the file. */
export interface ConvertStage {
  converter: RecordConverter;
  report: ReportBuilder;
  importedAt: string;
  redact: boolean;
  /** Hash each conversation's content (a store compares it with the version it holds). */
  hash: boolean;
  /** Project each conversation into the graph on the worker, for the store. */
  graph?: { deep: boolean } | undefined;
  /** Bytes of the file read so far (for progress). */
  onBytes: (n: number) => void;
  signal?: AbortSignal | undefined;
}

/**
 * The conversion of one conversations file: each record is converted on a worker thread, a
 * window of them in flight; the conversations come out in file order, so output and report are
 * the same whatever the timing. The next record is read only when the window has room, so a
 * file is never held whole.
 */
export async function* convertFile(
  claim: Claim,
  stage: ConvertStage,
): AsyncGenerator<ConvertedConversation> {
  const window = Math.max(8, stage.converter.workers * 8);
  const fallbackTime = claim.entry.modified ? toTimestamp(claim.entry.modified) : undefined;
  const queue: Promise<RecordResult>[] = [];
  try {
    yield* convertInOrder(claim, stage, queue, window, fallbackTime);
  } finally {
    // Left early (a failed worker rejects every task, an abort, a stage below that threw): the
    // conversions still queued are dropped, and their rejections must not end the process.
    for (const pending of queue) pending.catch(() => undefined);
  }
}

async function* convertInOrder(
  claim: Claim,
  stage: ConvertStage,
  queue: Promise<RecordResult>[],
  window: number,
  fallbackTime: string | undefined,
): AsyncGenerator<ConvertedConversation> {
  const { converter, report } = stage;
  const { entry, detection, sides } = claim;
  for await (const item of readRecords(entry, detection.format, stage.onBytes, sides)) {
    stage.signal?.throwIfAborted();
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
      ...(claim.entry.localFile !== undefined ? { localPath: resolve(claim.entry.localFile) } : {}),
      fallbackTime,
      assetsKey: claim.sourceKey,
      importedAt: stage.importedAt,
      checksum: claim.checksum ?? '',
      redact: stage.redact,
      hash: stage.hash,
      ...(stage.graph ? { graph: stage.graph } : {}),
    };
    queue.push(converter.submit(task));
    const next = queue.length >= window ? queue.shift() : undefined;
    if (next) yield* resultOf(claim, await next, report);
  }
  for (let next = queue.shift(); next; next = queue.shift())
    yield* resultOf(claim, await next, report);
}

function resultOf(
  claim: Claim,
  result: RecordResult,
  report: ReportBuilder,
): ConvertedConversation[] {
  for (const diagnostic of result.diagnostics) report.add(diagnostic);
  if (result.redactions) report.addRedactions(result.redactions);
  if (result.skipped) report.summary(claim.provider.name).skipped++;
  return result.conversations;
}
