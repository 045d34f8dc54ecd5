import { createHash } from 'node:crypto';
import { BundleWriter } from './bundle/bundle-writer.js';
import { repairDiagnostics } from './bundle/repair-index.js';
import { contentHashOfText } from './bundle/conversation-text.js';
import type { ConvertedConversation, RecordResult, RecordTask } from './convert-record.js';
import { ReportBuilder, type ImportReport } from './import-report.js';
import type { Diagnostic } from './model/diagnostic.js';
import { stableId } from './model/ids.js';
import { redactValue } from './model/redact.js';
import { contentHash } from './model/content-hash.js';
import type { Conversation } from './model/pam.js';
import type { GraphBatch } from './graph/graph-batch.js';
import { timestampOf, toTimestamp } from './model/time.js';
import { NotAnExportError } from './not-an-export-error.js';
import type { Account, ConversionContext, Detection, Provider } from './providers/provider.js';
import { PROVIDERS, productList } from './providers/registry.js';
import { AssetIndex } from './read/asset-index.js';
import type { Entry } from './read/entry.js';
import { cutOffJson } from './read/cut-off-json.js';
import { readHead } from './read/head.js';
import { openSource, type OpenedSource } from './read/open-source.js';
import { readRecords, readValues } from './read/read-records.js';
import { RecordConverter } from './record-converter.js';
import { recordLabel } from './convert-record.js';

/** How far an import has got, for a progress bar. */
export interface ImportProgress {
  /** `push`: a bundle being loaded into a store. */
  phase: 'checksum' | 'convert' | 'finish' | 'push';
  bytesDone: number;
  bytesTotal: number;
  conversations: number;
}

/** Where a conversation came from, for sinks. */
export interface SinkContext {
  provider: Provider;
  /** The hash of its content, import metadata aside (equal: nothing changed). */
  contentHash: string;
  /** The export file it came from, and that file's checksum. */
  file: string;
  checksum: string;
  /** Its graph batch, when the import asked for one (see `ConvertOptions.graph`). */
  batch: GraphBatch | undefined;
  /** The conversation itself (parsed from `text` on first use). */
  conversation(): Conversation;
}

/** Receives each conversation as it is written to the bundle (the graph store is one). */
export interface ConversationSink {
  write(context: SinkContext): Promise<void>;
}

/** An export file whose conversations have all been read. */
export interface ImportedFile {
  file: string;
  checksum: string;
  provider: string;
  /** The file's size and CRC-32 as its zip records them, when it is in a zip. */
  size?: number;
  crc32?: number;
}

/** What identifies a zipped export file without reading it: its path, size and CRC-32. */
export function fileFingerprint(file: string, size: number, crc32: number): string {
  return `${file}\u0000${size}\u0000${crc32}`;
}

/** Options of {@link convertExports}. */
export interface ConvertOptions {
  /** The bundle folder (created or extended). */
  out: string;
  /** The import time written into the files; defaults to now. */
  importedAt?: Date;
  onProgress?: (progress: ImportProgress) => void;
  sinks?: readonly ConversationSink[];
  /** Project each conversation into the graph on the worker, for the sinks (`SinkContext.batch`). */
  graph?: { deep: boolean };
  /** Conversations files whose checksum is here were imported before and are skipped. */
  skipChecksums?: ReadonlySet<string>;
  /**
   * Checksums of files imported before, by {@link fileFingerprint}: such a file is not read
   * again even to hash it (an unchanged 1 GB re-import then takes a second, not four).
   */
  knownFiles?: ReadonlyMap<string, string>;
  /** Called when every conversation of a file has been written (not for skipped files). */
  onFileImported?: (file: ImportedFile) => Promise<void>;
  /** Called for a file skipped as imported before. */
  onFileSkipped?: (file: ImportedFile) => Promise<void>;
  /** Mask secrets (API keys, tokens, bearer headers, URL passwords, private keys) before writing. */
  redact?: boolean;
  /** Conversations deleted with `chatgraph delete` (chatgraph's ids): not written again. */
  deleted?: ReadonlySet<string>;
  /** Worker threads for conversion (default: one per core but one, when compiled; 0: inline). */
  workers?: number;
}

interface Claim {
  source: OpenedSource;
  sourceKey: string;
  entry: Entry;
  provider: Provider;
  detection: Detection;
  checksum?: string;
  bytes?: number;
}

const SNIFF = /\.(json|jsonl|csv|html)$/i;

/**
 * Reads exports (zips, folders, files), converts every conversation to PAM and writes the
 * bundle: read → provider → PAM conversation → bundle (and any sinks), one record at a time.
 * Conversion runs on worker threads; results are taken in file order, so output and report are
 * the same whatever the timing.
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
    const claims: Claim[] = [];
    for (const [n, input] of inputs.entries()) {
      const source = await openSource(input);
      sources.push(source);
      for (const problem of source.problems) report.add(problem);
      claims.push(
        ...(await claimEntries(
          source,
          `source-${n}`,
          inputs.length === 1 && source.entries.length === 1,
        )),
      );
    }
    const conversationClaims = claims.filter((c) => c.detection.role === 'conversations');
    if (conversationClaims.length === 0) {
      const cut = await cutOffJson(sources);
      if (cut !== undefined)
        throw new NotAnExportError(
          `"${cut}" is cut off: it ends in the middle of its JSON, as an interrupted download does, before a whole conversation; nothing could be read (download the export again)`,
        );
      throw new NotAnExportError(
        `${inputs.map((i) => `"${i}"`).join(', ')} ${inputs.length === 1 ? 'is' : 'are'} not a chat export: expected an export of ${productList()} (a .zip, its unpacked folder, or its conversation files; see chatgraph sources), and found no conversations in ${describeFound(sources)}`,
      );
    }

    // Checksums first: each conversation names its source file's sha256, and a file already
    // imported is skipped without being parsed.
    const total = conversationClaims.reduce((sum, c) => sum + (c.entry.size ?? 0), 0);
    let hashed = 0;
    for (const claim of conversationClaims) {
      const { size, crc32 } = claim.entry;
      const known =
        size !== undefined && crc32 !== undefined
          ? options.knownFiles?.get(fileFingerprint(claim.entry.displayPath, size, crc32))
          : undefined;
      if (known !== undefined && size !== undefined) {
        claim.checksum = known;
        claim.bytes = size;
        continue;
      }
      const { checksum, bytes } = await checksumOf(claim.entry, (n) => {
        hashed += n;
        options.onProgress?.({
          phase: 'checksum',
          bytesDone: hashed,
          bytesTotal: total,
          conversations: 0,
        });
      });
      claim.checksum = checksum;
      claim.bytes = bytes;
    }
    for (const claim of claims) {
      const file: ImportReport['files'][number] = {
        file: claim.entry.displayPath,
        provider: claim.provider.name,
        role: claim.detection.role,
        variant: claim.detection.variant,
      };
      if (claim.checksum !== undefined) file.checksum = claim.checksum;
      if (claim.bytes !== undefined) file.bytes = claim.bytes;
      report.files.push(file);
    }

    const writer = await BundleWriter.open(options.out);
    for (const diagnostic of repairDiagnostics(writer.repaired, options.out))
      report.add(diagnostic);
    let leftDeleted = 0;
    let account: Account | undefined;
    const assets = new Map<string, AssetIndex>();
    for (const source of sources)
      assets.set(sourceKeyOf(claims, source), new AssetIndex(source.entries));
    for (const claim of claims) {
      const role = claim.detection.role;
      if (role !== 'account' && role !== 'asset-names') continue;
      for await (const item of readValues(claim.entry, claim.detection.format)) {
        if (item.kind === 'problem') {
          report.add(toDiagnostic(item, claim.entry));
        } else if (role === 'account' && claim.provider.toAccount) {
          account ??= claim.provider.toAccount(item.value);
        } else if (role === 'asset-names' && claim.provider.toAssetNames) {
          assets.get(claim.sourceKey)?.addOriginalNames(claim.provider.toAssetNames(item.value));
        }
      }
    }

    converter = new RecordConverter(options.workers);
    for (const [key, index] of assets) converter.setAssets(key, index.refTable());
    const grandTotal = conversationClaims.reduce((sum, c) => sum + (c.bytes ?? 0), 0);
    let done = 0;
    let converted = 0;
    const seen = new Map<string, string>();
    // What each written conversation added to the report, swapped when a newer copy replaces it.
    const countsOf = new Map<string, ConvertedConversation['counts']>();
    const window = Math.max(8, converter.workers * 8);

    const take = async (claim: Claim, result: RecordResult): Promise<void> => {
      for (const diagnostic of result.diagnostics) report.add(diagnostic);
      if (result.redactions) report.addRedactions(result.redactions);
      if (result.skipped) report.summary(claim.provider.name).skipped++;
      for (const conversation of result.conversations) await takeConversation(claim, conversation);
    };

    const takeConversation = async (
      claim: Claim,
      converted_: ConvertedConversation,
    ): Promise<void> => {
      if (options.deleted?.has(converted_.id)) {
        leftDeleted++;
        return;
      }
      const summary = report.summary(claim.provider.name);
      const before = seen.get(converted_.id);
      if (before !== undefined) {
        report.written.duplicates++;
        const newer = converted_.updated > before;
        report.add({
          level: 'info',
          code: 'duplicate-conversation',
          message: newer
            ? `conversation ${converted_.platformId ?? ''} appeared before in this import; this newer copy replaces it`
            : `conversation ${converted_.platformId ?? ''} appeared before in this import; this copy is not newer and is skipped`,
          file: claim.entry.displayPath,
        });
        if (!newer) return;
        const counted = countsOf.get(converted_.id);
        if (counted) report.replaceCounts(claim.provider.name, counted, converted_.counts);
      } else {
        report.addCounts(claim.provider.name, converted_.counts);
      }
      seen.set(converted_.id, converted_.updated);
      countsOf.set(converted_.id, converted_.counts);
      const index = assets.get(claim.sourceKey);
      for (const ref of converted_.refs) {
        const entry = index?.entryOf(ref);
        if (entry && (await copyAssetOrReport(writer, entry, ref, report)))
          summary.attachmentsCopied++;
      }
      for (const { ref, text } of converted_.inlineAssets)
        if (await writer.writeText(ref, text)) summary.attachmentTexts++;
      report.written[
        writer.writeConversation(
          converted_.id,
          converted_.text,
          converted_.contentHash,
          converted_.index,
        )
      ]++;
      if (options.sinks && options.sinks.length > 0) {
        let parsed: Conversation | undefined;
        const text = converted_.text;
        const context: SinkContext = {
          provider: claim.provider,
          contentHash: converted_.contentHash ?? contentHashOfText(text),
          file: claim.entry.displayPath,
          checksum: claim.checksum ?? '',
          batch: converted_.batch,
          conversation: () => (parsed ??= JSON.parse(text) as Conversation),
        };
        for (const sink of options.sinks) await sink.write(context);
      }
      converted++;
      options.onProgress?.({
        phase: 'convert',
        bytesDone: done,
        bytesTotal: grandTotal,
        conversations: converted,
      });
    };

    for (const claim of conversationClaims) {
      const checksum = claim.checksum ?? '';
      if (options.skipChecksums?.has(checksum)) {
        const { size, crc32 } = claim.entry;
        await options.onFileSkipped?.({
          file: claim.entry.displayPath,
          checksum,
          provider: claim.provider.name,
          ...(size !== undefined ? { size } : {}),
          ...(crc32 !== undefined ? { crc32 } : {}),
        });
        done += claim.bytes ?? 0;
        report.add({
          level: 'info',
          code: 'file-already-imported',
          message: `skipped: this file (${checksum}) was imported before and has not changed`,
          file: claim.entry.displayPath,
        });
        continue;
      }
      const fallbackTime = claim.entry.modified ? toTimestamp(claim.entry.modified) : undefined;
      const queue: Promise<RecordResult>[] = [];
      for await (const item of readRecords(claim.entry, claim.detection.format, (n) => {
        done += n;
      })) {
        if (item.kind === 'problem') {
          report.add(toDiagnostic(item, claim.entry));
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
          importedAt,
          checksum,
          redact: options.redact === true,
          hash: (options.sinks?.length ?? 0) > 0,
          ...(options.graph ? { graph: options.graph } : {}),
        };
        queue.push(converter.submit(task));
        if (queue.length >= window)
          await take(claim, await (queue.shift() as Promise<RecordResult>));
      }
      while (queue.length > 0) await take(claim, await (queue.shift() as Promise<RecordResult>));
      const { size, crc32 } = claim.entry;
      await options.onFileImported?.({
        ...(size !== undefined ? { size } : {}),
        ...(crc32 !== undefined ? { crc32 } : {}),
        file: claim.entry.displayPath,
        checksum,
        provider: claim.provider.name,
      });
    }

    for (const claim of claims) {
      const role = claim.detection.role;
      if ((role !== 'memories' && role !== 'projects') || !claim.provider.toMemories) continue;
      const fallbackTime = claim.entry.modified ? toTimestamp(claim.entry.modified) : undefined;
      for await (const item of readValues(claim.entry, claim.detection.format)) {
        if (item.kind === 'problem') {
          report.add(toDiagnostic(item, claim.entry));
          continue;
        }
        const context: ConversionContext = {
          record: recordLabel(item.index, item.value),
          file: claim.entry.path,
          fallbackTime,
          report: (d) => {
            report.add({ ...d, file: claim.entry.displayPath });
          },
          resolveAsset: () => undefined,
          attachText: () => {
            throw new Error('memories carry no attachment text');
          },
        };
        const found = claim.provider.toMemories(item.value, role, context);
        const redactions: Record<string, number> = {};
        const memories = options.redact
          ? found.map((memory) => {
              const masked = redactValue(memory, redactions);
              return { ...masked, content_hash: contentHash(masked.content) };
            })
          : found;
        report.addRedactions(redactions);
        writer.addMemories(memories);
        report.summary(claim.provider.name).memories += memories.length;
      }
    }

    if (leftDeleted > 0) {
      report.add({
        level: 'info',
        code: 'deleted-conversation-left-out',
        message: `${leftDeleted} conversation(s) deleted with "chatgraph delete" were left out (import --restore brings them back)`,
      });
    }
    options.onProgress?.({
      phase: 'finish',
      bytesDone: grandTotal,
      bytesTotal: grandTotal,
      conversations: converted,
    });
    const checksums = conversationClaims.map((c) => c.checksum ?? '').sort();
    const ownerId = writer.ownerId ?? account?.id ?? stableId('owner', ...checksums);
    await writer.finish({ id: ownerId, createdAt: importedAt }, importedAt);
    return report.build();
  } finally {
    await converter?.close();
    await Promise.all(sources.map((s) => s.close()));
  }
}

/**
 * Copies one attachment into the bundle; one that cannot be read (a zip bomb, a damaged entry)
 * is reported and costs only itself.
 */
async function copyAssetOrReport(
  writer: BundleWriter,
  entry: Entry,
  ref: string,
  report: ReportBuilder,
): Promise<boolean> {
  try {
    return await writer.copyAsset(entry, ref);
  } catch (error) {
    report.add({
      level: 'error',
      code: 'attachment-unreadable',
      message: `attachment ${ref} could not be copied: ${error instanceof Error ? error.message : String(error)}; the conversation is kept without it`,
      file: entry.displayPath,
    });
    return false;
  }
}

function sourceKeyOf(claims: readonly Claim[], source: OpenedSource): string {
  return claims.find((c) => c.source === source)?.sourceKey ?? `unclaimed-${source.input}`;
}

async function claimEntries(
  source: OpenedSource,
  sourceKey: string,
  sniffAnything: boolean,
): Promise<Claim[]> {
  const claims: Claim[] = [];
  for (const entry of source.entries) {
    if (!SNIFF.test(entry.path) && !sniffAnything) continue;
    const head = (await readHead(entry)).toString('utf8');
    for (const provider of PROVIDERS) {
      const detection = provider.detect(entry.path, head);
      if (detection) {
        claims.push({ source, sourceKey, entry, provider, detection });
        break;
      }
    }
  }
  return claims;
}

function describeFound(sources: readonly OpenedSource[]): string {
  const count = sources.reduce((sum, s) => sum + s.entries.length, 0);
  if (count === 0) return 'an empty input';
  const names = sources.flatMap((s) => s.entries.slice(0, 3).map((e) => e.path));
  return `${count} file(s) (${names.join(', ')}${count > names.length ? ', …' : ''})`;
}

async function checksumOf(
  entry: Entry,
  onBytes: (n: number) => void,
): Promise<{ checksum: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  const stream = await entry.open();
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      hash.update(chunk);
      bytes += chunk.length;
      onBytes(chunk.length);
    }
  } catch {
    // A damaged file: the checksum covers the bytes that could be read; the reading pass
    // reports the damage with its offset.
    stream.destroy();
  }
  return { checksum: `sha256:${hash.digest('hex')}`, bytes };
}

function toDiagnostic(
  item: { code: string; message: string; offset: number; index?: number },
  entry: Entry,
): Diagnostic {
  const diagnostic: Diagnostic = {
    level: 'error',
    code: item.code,
    message: item.message,
    file: entry.displayPath,
    offset: item.offset,
  };
  if (item.index !== undefined) diagnostic.record = `#${item.index}`;
  return diagnostic;
}
