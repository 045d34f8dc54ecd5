import type { ReportBuilder } from './import-report.js';
import type { Account, LibraryFile } from '../providers/provider.js';
import { AssetIndex } from '../read/asset-index.js';
import type { OpenedSource } from '../read/open-source.js';
import { readValues } from '../read/read-records.js';
import { sourceKeyOf, type Claim } from './claim.js';
import { readDiagnostic } from './read-diagnostic.js';

/** What an export says beside its conversations: whose it is, and its attachments' names. */
export interface SideFiles {
  account: Account | undefined;
  /** Each source's attachments, by source key. */
  assets: Map<string, AssetIndex>;
  /** Each source's library files, by source key, then by the platform id of their message. */
  library: Map<string, Map<string, LibraryFile[]>>;
}

/** Stage 3, side files: the account, the original names of attachments, the library's links. */
export async function readSideFiles(
  claims: readonly Claim[],
  sources: readonly OpenedSource[],
  report: ReportBuilder,
): Promise<SideFiles> {
  let account: Account | undefined;
  const assets = new Map<string, AssetIndex>();
  const library = new Map<string, Map<string, LibraryFile[]>>();
  for (const source of sources)
    assets.set(sourceKeyOf(claims, source), new AssetIndex(source.entries));
  for (const claim of claims) {
    const role = claim.detection.role;
    if (role !== 'account' && role !== 'asset-names' && role !== 'library-files') continue;
    for await (const item of readValues(claim.entry, claim.detection.format)) {
      if (item.kind === 'problem') {
        report.add(readDiagnostic(item, claim.entry));
      } else if (role === 'account' && claim.provider.toAccount) {
        account ??= claim.provider.toAccount(item.value);
      } else if (role === 'asset-names' && claim.provider.toAssetNames) {
        assets.get(claim.sourceKey)?.addOriginalNames(claim.provider.toAssetNames(item.value));
      } else if (role === 'library-files' && claim.provider.toLibraryFile) {
        const file = claim.provider.toLibraryFile(item.value);
        if (!file) continue;
        let byMessage = library.get(claim.sourceKey);
        if (!byMessage)
          library.set(claim.sourceKey, (byMessage = new Map<string, LibraryFile[]>()));
        // By its message, and by its conversation: a file whose message the export left out is
        // placed by time (`thread:<id>`, see the provider).
        for (const key of [file.messageId, file.threadId ? `thread:${file.threadId}` : null])
          if (key !== null) byMessage.set(key, [...(byMessage.get(key) ?? []), file]);
      }
    }
  }
  return { account, assets, library };
}
