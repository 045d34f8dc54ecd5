import { plural } from '../model/plural.js';
import type { Claim } from './claim.js';
import type { ReportBuilder } from './import-report.js';
import { NotAnExportError } from './not-an-export-error.js';

/** What an import found of one store it cannot read. */
interface Found {
  product: string;
  reason: string;
  files: number;
  bytes: number;
  first: string;
}

/**
 * Reports the stores a provider claimed but cannot read (`unreadable` entries: Windsurf's
 * protobuf conversations), one warning a provider naming how many files, how large and why:
 * never a silent "0 sessions". Returns the sentence for an input that held nothing else.
 */
export function reportUnreadable(
  claims: readonly Claim[],
  report: ReportBuilder,
): string | undefined {
  const found = new Map<string, Found>();
  for (const claim of claims) {
    if (claim.detection.role !== 'unreadable') continue;
    const { provider, entry } = claim;
    const item = found.get(provider.name) ?? {
      product: provider.product,
      reason: provider.agent?.unreadable ?? 'chatgraph cannot read its format',
      files: 0,
      bytes: 0,
      first: entry.displayPath,
    };
    item.files++;
    item.bytes += entry.size ?? 0;
    found.set(provider.name, item);
  }
  const sentences: string[] = [];
  for (const item of found.values()) {
    const message = `found ${plural(item.files, `${item.product} file`)} (${megabytes(item.bytes)}, first ${item.first}) that chatgraph cannot read: ${item.reason}`;
    sentences.push(message);
    report.add({ level: 'warning', code: 'store-unreadable', message, file: item.first });
  }
  return sentences.length > 0 ? sentences.join('; ') : undefined;
}

/** The error for an input holding only stores chatgraph cannot read. */
export function onlyUnreadable(sentence: string): NotAnExportError {
  return new NotAnExportError(`${sentence}; no conversations could be read`);
}

function megabytes(bytes: number): string {
  return bytes < 1024 * 1024
    ? `${Math.ceil(bytes / 1024)} KB`
    : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
