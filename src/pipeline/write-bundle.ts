import type { BundleWriter } from '../bundle/bundle-writer.js';
import type { ReportBuilder } from './import-report.js';
import type { AssetIndex } from '../read/asset-index.js';
import type { Entry } from '../read/entry.js';
import type { Claim } from './claim.js';
import type { ConvertedConversation } from './convert-record.js';

/**
 * Writes one conversation into the bundle (the `toBundle` stage, import-stages.ts): a conversation's attachments, attached texts, then its file
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
    const entry = assets?.entryOf(converted.assetSources?.[ref] ?? ref);
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
