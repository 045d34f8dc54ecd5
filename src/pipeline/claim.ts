import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { plural } from '../model/plural.js';
import { NotAnExportError } from './not-an-export-error.js';
import type { Detection, Provider } from '../providers/provider.js';
import { PROVIDERS, productList } from '../providers/registry.js';
import { cutOffJson } from '../read/cut-off-json.js';
import { besidePath, type Entry } from '../read/entry.js';
import { fileEntry } from '../read/file-entry.js';
import type { SideEntry } from '../read/read-records.js';
import { readHead } from '../read/head.js';
import {
  expandSidePatterns,
  folderIndex,
  isSidePattern,
  type FolderIndex,
} from '../read/side-patterns.js';
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
  /** The files a file-set format reads beside the claimed one, those the input has. */
  sides?: SideEntry[];
}

const SNIFF = /\.(json|jsonl|csv|html)$/i;

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

/**
 * The providers' claims on the files of one opened input, as stage 1 makes them (a single
 * file given alone is read whatever its name when `sniffAnything`).
 */
export async function claimEntries(
  source: OpenedSource,
  sourceKey: string,
  sniffAnything: boolean,
): Promise<Claim[]> {
  const claims: Claim[] = [];
  let byPath: Map<string, Entry> | undefined;
  for (const entry of source.entries) {
    if (!sniffAnything && !SNIFF.test(entry.path) && !sniffedByName(entry)) continue;
    const head = (await readHead(entry)).toString('utf8');
    for (const provider of PROVIDERS) {
      const detection = provider.detect(entry.path, head, entry.localFile);
      if (detection) {
        const claim: Claim = { source, sourceKey, entry, provider, detection };
        if (detection.format.kind === 'file-set') {
          byPath ??= new Map(source.entries.map((e) => [e.path, e]));
          claim.sides = await sidesOf(entry, detection.format.with, byPath);
        }
        claims.push(claim);
        break;
      }
    }
  }
  return claims;
}

// Files a provider reads whose extension is not one sniffed (each provider names its own).
const BY_NAME: readonly RegExp[] = PROVIDERS.flatMap((p) => (p.fileNames ? [p.fileNames] : []));

function sniffedByName(entry: Entry): boolean {
  return BY_NAME.some(
    (pattern) =>
      pattern.test(entry.path) || (entry.localFile !== undefined && pattern.test(entry.localFile)),
  );
}

// A file-set's side files: in the input beside the claimed file, else (a file given alone) on
// disk beside it.
async function sidesOf(
  entry: Entry,
  names: readonly string[],
  byPath: ReadonlyMap<string, Entry>,
): Promise<SideEntry[]> {
  const sides: SideEntry[] = [];
  const patterns = names.filter(isSidePattern);
  if (patterns.length > 0)
    for (const matches of expandSidePatterns(entry.path, patterns, indexOf(byPath)))
      for (const { name, path } of matches) {
        const found = byPath.get(path);
        if (found) sides.push({ name, entry: found });
      }
  for (const name of names.filter((n) => !isSidePattern(n))) {
    const path = besidePath(entry.path, name);
    const inInput = path !== undefined ? byPath.get(path) : undefined;
    if (inInput) {
      sides.push({ name, entry: inInput });
      continue;
    }
    if (entry.localFile === undefined || byPath.size > 1) continue;
    const local = join(dirname(entry.localFile), ...name.split('/'));
    const info = await stat(local).catch(() => undefined);
    if (info?.isFile() === true)
      sides.push({ name, entry: fileEntry(local, name, local, info.size, info.mtime) });
  }
  return sides;
}

// The input's files by folder, made once per input (a file set's patterns are expanded on it).
const indexes = new WeakMap<ReadonlyMap<string, Entry>, FolderIndex>();
function indexOf(byPath: ReadonlyMap<string, Entry>): FolderIndex {
  let index = indexes.get(byPath);
  if (!index) {
    index = folderIndex(byPath.keys());
    indexes.set(byPath, index);
  }
  return index;
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
