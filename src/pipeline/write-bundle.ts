import type { BundleWriter } from '../bundle/bundle-writer.js';
import { contentHashOfText } from '../bundle/conversation-text.js';
import type { ReportBuilder } from './import-report.js';
import type { Conversation } from '../model/pam.js';
import type { AssetIndex } from '../read/asset-index.js';
import type { Entry } from '../read/entry.js';
import type { Claim } from './claim.js';
import { findProvider } from '../providers/registry.js';
import type { ConversationSink, SinkContext } from './convert-options.js';
import type { ConvertedConversation } from './convert-record.js';
import { parseWrittenConversation } from './written-conversation.js';

/**
 * Stage 6, write the bundle: a conversation's attachments, attached texts, then its file
 * (`stored`: the text of the file there, when read already).
 */
export async function writeToBundle(
  writer: BundleWriter,
  claim: Claim,
  converted: ConvertedConversation,
  assets: AssetIndex | undefined,
  report: ReportBuilder,
  stored?: { text: string | undefined },
): Promise<void> {
  const summary = report.summary(claim.provider.name);
  for (const ref of converted.refs) {
    const entry = assets?.entryOf(ref);
    if (entry && (await copyAssetOrReport(writer, entry, ref, report))) summary.attachmentsCopied++;
  }
  for (const { ref, text } of converted.inlineAssets)
    if (await writer.writeText(ref, text)) summary.attachmentTexts++;
  report.written[
    writer.writeConversation(
      converted.id,
      converted.text,
      converted.contentHash,
      converted.index,
      ...(stored ? [stored] : []),
    )
  ]++;
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

/** Stage 7, sinks: each written conversation handed on (the store projects its graph batch). */
export async function toSinks(
  sinks: readonly ConversationSink[] | undefined,
  claim: Claim,
  converted: ConvertedConversation,
): Promise<void> {
  if (!sinks || sinks.length === 0) return;
  let parsed: Conversation | undefined;
  const text = converted.text;
  const context: SinkContext = {
    // A PAM file's conversation is projected as its own platform's, not as the claiming `pam`.
    provider: findProvider(converted.platform) ?? claim.provider,
    contentHash: converted.contentHash ?? contentHashOfText(text),
    file: claim.entry.displayPath,
    checksum: claim.checksum ?? '',
    batch: converted.batch,
    // Text this process wrote from a conversation it built: parsed back only if a sink asks.
    conversation: () => (parsed ??= parseWrittenConversation(text, converted.id)),
  };
  for (const sink of sinks) await sink.write(context);
}
