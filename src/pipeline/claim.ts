import { plural } from '../model/plural.js';
import { NotAnExportError } from './not-an-export-error.js';
import type { Detection, Provider } from '../providers/provider.js';
import { PROVIDERS, productList } from '../providers/registry.js';
import { cutOffJson } from '../read/cut-off-json.js';
import type { Entry } from '../read/entry.js';
import { readHead } from '../read/head.js';
import { openSource, type OpenedSource } from '../read/open-source.js';
import { declaredBomb } from '../read/zip-limits.js';
import type { ReportBuilder } from './import-report.js';

/** An export file a provider recognised, and what it holds. */
export interface Claim {
  source: OpenedSource;
  sourceKey: string;
  entry: Entry;
  provider: Provider;
  detection: Detection;
  checksum?: string;
  bytes?: number;
}

// SQLite stores by their extensions: `state.vscdb`, `opencode.db`, `threads.db`, `data.sqlite3`;
// the providers then claim them by name and by their "SQLite format 3" header.
const SNIFF = /\.(json|jsonl|csv|html|db|vscdb|sqlite|sqlite3)$/i;

/**
 * Stage 1, claim: opens each input (into `sources`, which the caller closes) and lets the
 * providers claim its files by their name and first bytes.
 */
export async function claimInputs(
  inputs: readonly string[],
  sources: OpenedSource[],
  report: ReportBuilder,
  signal?: AbortSignal,
): Promise<Claim[]> {
  const claims: Claim[] = [];
  for (const [n, input] of inputs.entries()) {
    signal?.throwIfAborted();
    const source = await openSource(input);
    sources.push(source);
    for (const problem of source.problems) report.add(problem);
    // A single file given alone is read whatever its name.
    const sniffAnything = inputs.length === 1 && source.entries.length === 1;
    for (const claim of await claimEntries(source, `source-${n}`, sniffAnything))
      claims.push(claim);
  }
  return claims;
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

/** The error for inputs in which no provider found a conversation. */
export async function notAnExport(
  inputs: readonly string[],
  sources: readonly OpenedSource[],
): Promise<NotAnExportError> {
  const refused = sources.flatMap((s) => s.problems).find((p) => p.code === 'input-not-a-file');
  if (refused) return new NotAnExportError(refused.message);
  const bomb = sources.flatMap((s) => s.entries).find((e) => declaredBomb(e) !== undefined);
  if (bomb)
    return new NotAnExportError(
      `"${bomb.displayPath}" was refused as a zip bomb: ${declaredBomb(bomb) ?? ''}; no conversations could be read`,
    );
  const cut = await cutOffJson(sources);
  if (cut !== undefined)
    return new NotAnExportError(
      `"${cut}" is cut off: it ends in the middle of its JSON, as an interrupted download does, before a whole conversation; nothing could be read (download the export again)`,
    );
  return new NotAnExportError(
    `${inputs.map((i) => `"${i}"`).join(', ')} ${inputs.length === 1 ? 'is' : 'are'} not a chat export: expected an export of ${productList()} (a .zip, its unpacked folder, or its conversation files; see chatgraph sources), and found no conversations in ${describeFound(sources)}`,
  );
}

function describeFound(sources: readonly OpenedSource[]): string {
  const count = sources.reduce((sum, s) => sum + s.entries.length, 0);
  if (count === 0) return 'an empty input';
  const names = sources.flatMap((s) => s.entries.slice(0, 3).map((e) => e.path));
  return `${plural(count, 'file')} (${names.join(', ')}${count > names.length ? ', …' : ''})`;
}

/** The key that ties a source's files to its attachments. */
export function sourceKeyOf(claims: readonly Claim[], source: OpenedSource): string {
  return claims.find((c) => c.source === source)?.sourceKey ?? `unclaimed-${source.input}`;
}
