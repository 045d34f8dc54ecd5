import type { BundleWriter } from '../bundle/bundle-writer.js';
import type { ReportBuilder } from './import-report.js';
import { contentHash } from '../model/content-hash.js';
import type { Memory } from '../model/pam.js';
import { redactValue } from '../model/redact.js';
import { toTimestamp } from '../model/time.js';
import type { ConversionContext } from '../providers/provider.js';
import { readValues } from '../read/read-records.js';
import type { Claim } from './claim.js';
import { recordLabel } from './convert-record.js';
import { readDiagnostic } from './read-diagnostic.js';

/** Stage 8, memories: what the platform remembered of the user (Claude's memories, projects). */
export async function readMemories(
  claims: readonly Claim[],
  writer: BundleWriter,
  report: ReportBuilder,
  redact: boolean,
): Promise<void> {
  for (const claim of claims) {
    const role = claim.detection.role;
    if ((role !== 'memories' && role !== 'projects') || !claim.provider.toMemories) continue;
    const fallbackTime = claim.entry.modified ? toTimestamp(claim.entry.modified) : undefined;
    for await (const item of readValues(claim.entry, claim.detection.format)) {
      if (item.kind === 'problem') {
        report.add(readDiagnostic(item, claim.entry));
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
      const memories = maskMemories(
        claim.provider.toMemories(item.value, role, context),
        redact,
        report,
      );
      // Counted when new or changed: an export imported again adds none.
      report.summary(claim.provider.name).memories += writer.addMemories(memories);
    }
  }
}

/** Memories with their secrets masked (with `redact`), counted in the report. */
export function maskMemories(
  found: readonly Memory[],
  redact: boolean,
  report: ReportBuilder,
): Memory[] {
  if (!redact) return [...found];
  const redactions: Record<string, number> = {};
  const memories = found.map((memory) => {
    const masked = redactValue(memory, redactions);
    return { ...masked, content_hash: contentHash(masked.content) };
  });
  report.addRedactions(redactions);
  return memories;
}
