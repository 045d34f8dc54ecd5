import { createHash } from 'node:crypto';
import { BundleWriter } from './bundle/bundle-writer.js';
import { ReportBuilder, type ImportReport } from './import-report.js';
import type { Diagnostic } from './model/diagnostic.js';
import { stableId } from './model/ids.js';
import type { Conversation } from './model/pam.js';
import { timestampOf, toTimestamp } from './model/time.js';
import { NotAnExportError } from './not-an-export-error.js';
import type { Account, ConversionContext, Detection, Provider } from './providers/provider.js';
import { PROVIDERS } from './providers/registry.js';
import { asObject, asText } from './providers/untrusted.js';
import { AssetIndex } from './read/asset-index.js';
import type { Entry } from './read/entry.js';
import { readHead } from './read/head.js';
import { openSource, type OpenedSource } from './read/open-source.js';
import { readRecords } from './read/read-records.js';
import { IMPORTER } from './version.js';

/** How far an import has got, for a progress bar. */
export interface ImportProgress {
  phase: 'checksum' | 'convert' | 'finish';
  bytesDone: number;
  bytesTotal: number;
  conversations: number;
}

/** Receives each conversation as it is written to the bundle (the graph store is one). */
export interface ConversationSink {
  write(conversation: Conversation, provider: Provider): Promise<void>;
}

/** Options of {@link convertExports}. */
export interface ConvertOptions {
  /** The bundle folder (created or extended). */
  out: string;
  /** The import time written into the files; defaults to now. */
  importedAt?: Date;
  onProgress?: (progress: ImportProgress) => void;
  sinks?: readonly ConversationSink[];
  /** Conversations files whose checksum is here were imported before and are skipped. */
  skipChecksums?: ReadonlySet<string>;
}

interface Claim {
  source: OpenedSource;
  entry: Entry;
  provider: Provider;
  detection: Detection;
  checksum?: string;
  bytes?: number;
}

const SNIFF = /\.(json|jsonl)$/i;

/**
 * Reads exports (zips, folders, files), converts every conversation to PAM and writes the
 * bundle: read → provider → PAM conversation → bundle (and any sinks), one record at a time.
 */
export async function convertExports(
  inputs: readonly string[],
  options: ConvertOptions,
): Promise<ImportReport> {
  const report = new ReportBuilder(options.out);
  const importedAt = timestampOf(options.importedAt ?? new Date());
  const sources: OpenedSource[] = [];
  try {
    const claims: Claim[] = [];
    for (const input of inputs) {
      const source = await openSource(input);
      sources.push(source);
      for (const problem of source.problems) report.add(problem);
      claims.push(...(await claimEntries(source, inputs.length === 1 && source.entries.length === 1)));
    }
    const conversationClaims = claims.filter((c) => c.detection.role === 'conversations');
    if (conversationClaims.length === 0) {
      throw new NotAnExportError(
        `${inputs.map((i) => `"${i}"`).join(', ')} ${inputs.length === 1 ? 'is' : 'are'} not a chat export: expected a ChatGPT or Claude.ai export (a .zip, its unpacked folder, or its conversations.json / conversations.jsonl), and found no conversations in ${describeFound(sources)}`,
      );
    }

    // Checksums first: each conversation names its source file's sha256, and a file already
    // imported is skipped without being parsed.
    const total = conversationClaims.reduce((sum, c) => sum + (c.entry.size ?? 0), 0);
    let hashed = 0;
    for (const claim of conversationClaims) {
      const { checksum, bytes } = await checksumOf(claim.entry, (n) => {
        hashed += n;
        options.onProgress?.({ phase: 'checksum', bytesDone: hashed, bytesTotal: total, conversations: 0 });
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
    let account: Account | undefined;
    const assets = new Map<OpenedSource, AssetIndex>();
    for (const claim of claims) {
      if (claim.detection.role === 'account' && claim.provider.toAccount) {
        for await (const item of readRecords(claim.entry, claim.detection.format)) {
          if (item.kind === 'value') account ??= claim.provider.toAccount(item.value);
          else report.add(toDiagnostic(item, claim.entry));
        }
      }
      if (claim.detection.role === 'asset-names' && claim.provider.toAssetNames) {
        for await (const item of readRecords(claim.entry, claim.detection.format)) {
          if (item.kind === 'value') assetsOf(assets, claim.source).addOriginalNames(claim.provider.toAssetNames(item.value));
        }
      }
    }

    const grandTotal = conversationClaims.reduce((sum, c) => sum + (c.bytes ?? 0), 0);
    let done = 0;
    let converted = 0;
    const seen = new Map<string, string>();
    for (const claim of conversationClaims) {
      const checksum = claim.checksum ?? '';
      if (options.skipChecksums?.has(checksum)) {
        done += claim.bytes ?? 0;
        report.add({
          level: 'info',
          code: 'file-already-imported',
          message: `skipped: this file (${checksum}) was imported before and has not changed`,
          file: claim.entry.displayPath,
        });
        continue;
      }
      const index = assetsOf(assets, claim.source);
      const fallbackTime = claim.entry.modified ? toTimestamp(claim.entry.modified) : undefined;
      const onBytes = (n: number): void => {
        done += n;
      };
      for await (const item of readRecords(claim.entry, claim.detection.format, onBytes)) {
        if (item.kind === 'problem') {
          report.add(toDiagnostic(item, claim.entry));
          if (item.code === 'malformed-record') report.summary(claim.provider.name).skipped++;
          continue;
        }
        const record = recordLabel(item.index, item.value);
        const pending: { entry: Entry; ref: string }[] = [];
        const context: ConversionContext = {
          record,
          fallbackTime,
          report: (d) => report.add({ ...d, file: claim.entry.displayPath }),
          resolveAsset: (pointer) => {
            const found = index.resolve(pointer);
            if (found) pending.push(found);
            return found?.ref;
          },
        };
        if (item.invalidUtf8) {
          context.report({
            level: 'warning',
            code: 'invalid-utf8',
            message: 'the record had bytes that are not UTF-8; they were replaced by U+FFFD',
            record,
          });
        }
        let conversation: Conversation | undefined;
        try {
          conversation = claim.provider.toConversation(item.value, claim.detection.variant, context);
        } catch (error) {
          context.report({
            level: 'error',
            code: 'conversion-failed',
            message: `could not convert this conversation: ${error instanceof Error ? error.message : String(error)}; skipped`,
            record,
          });
        }
        if (!conversation) {
          report.summary(claim.provider.name).skipped++;
          continue;
        }
        conversation.import_metadata = {
          importer: IMPORTER,
          importer_version: `${claim.provider.name}-importer/${claim.detection.variant}`,
          imported_at: importedAt,
          source_file: claim.entry.displayPath,
          source_checksum: checksum,
        };
        const updated = conversation.temporal.updated_at ?? conversation.temporal.created_at;
        const before = seen.get(conversation.id);
        if (before !== undefined) {
          report.written.duplicates++;
          const newer = updated > before;
          context.report({
            level: 'info',
            code: 'duplicate-conversation',
            message: newer
              ? `conversation ${conversation.provider.conversation_id ?? ''} appeared before in this import; this newer copy replaces it`
              : `conversation ${conversation.provider.conversation_id ?? ''} appeared before in this import; this copy is not newer and is skipped`,
            record,
          });
          if (!newer) continue;
        } else {
          report.countConversation(claim.provider.name, conversation);
        }
        seen.set(conversation.id, updated);
        const summary = report.summary(claim.provider.name);
        for (const asset of pending) {
          if (await writer.copyAsset(asset.entry, asset.ref)) summary.attachmentsCopied++;
        }
        for (const message of conversation.messages) {
          for (const attachment of message.attachments) if (attachment.ref === null) summary.attachmentsMissing++;
        }
        const outcome = await writer.writeConversation(conversation);
        report.written[outcome]++;
        for (const sink of options.sinks ?? []) await sink.write(conversation, claim.provider);
        converted++;
        options.onProgress?.({ phase: 'convert', bytesDone: done, bytesTotal: grandTotal, conversations: converted });
      }
    }

    for (const claim of claims) {
      const role = claim.detection.role;
      if ((role !== 'memories' && role !== 'projects') || !claim.provider.toMemories) continue;
      const fallbackTime = claim.entry.modified ? toTimestamp(claim.entry.modified) : undefined;
      for await (const item of readRecords(claim.entry, claim.detection.format)) {
        if (item.kind === 'problem') {
          report.add(toDiagnostic(item, claim.entry));
          continue;
        }
        const context: ConversionContext = {
          record: recordLabel(item.index, item.value),
          fallbackTime,
          report: (d) => report.add({ ...d, file: claim.entry.displayPath }),
          resolveAsset: () => undefined,
        };
        const memories = claim.provider.toMemories(item.value, role, context);
        writer.addMemories(memories);
        report.summary(claim.provider.name).memories += memories.length;
      }
    }

    options.onProgress?.({ phase: 'finish', bytesDone: grandTotal, bytesTotal: grandTotal, conversations: converted });
    const checksums = conversationClaims.map((c) => c.checksum ?? '').sort();
    const ownerId = writer.ownerId ?? account?.id ?? stableId('owner', ...checksums);
    await writer.finish({ id: ownerId, createdAt: importedAt }, importedAt);
    return report.build();
  } finally {
    await Promise.all(sources.map((s) => s.close()));
  }
}

function assetsOf(indexes: Map<OpenedSource, AssetIndex>, source: OpenedSource): AssetIndex {
  let index = indexes.get(source);
  if (!index) {
    index = new AssetIndex(source.entries);
    indexes.set(source, index);
  }
  return index;
}

async function claimEntries(source: OpenedSource, sniffAnything: boolean): Promise<Claim[]> {
  const claims: Claim[] = [];
  for (const entry of source.entries) {
    if (!SNIFF.test(entry.path) && !sniffAnything) continue;
    const head = (await readHead(entry)).toString('utf8');
    for (const provider of PROVIDERS) {
      const detection = provider.detect(entry.path, head);
      if (detection) {
        claims.push({ source, entry, provider, detection });
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

async function checksumOf(entry: Entry, onBytes: (n: number) => void): Promise<{ checksum: string; bytes: number }> {
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

function recordLabel(index: number, value: unknown): string {
  const object = asObject(value);
  const id = asText(object?.uuid) ?? asText(object?.conversation_id) ?? asText(object?.id);
  return id !== undefined ? `#${index} (${id})` : `#${index}`;
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
