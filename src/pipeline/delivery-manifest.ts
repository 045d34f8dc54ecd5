import { basename } from 'node:path';
import type { ReportBuilder } from './import-report.js';
import { NotAnExportError } from './not-an-export-error.js';
import { plural } from '../model/plural.js';
import { baseName } from '../read/entry.js';
import { readHead } from '../read/head.js';
import type { OpenedSource } from '../read/open-source.js';
import type { Claim } from './claim.js';

/** A manifest is a page of links: more than this is not one. */
const MANIFEST_LIMIT = 4 * 1024 * 1024;

/** The parts (zips and JSON files) a delivery manifest lists, and those the inputs lack. */
export interface DeliveryCheck {
  manifests: Claim[];
  listed: string[];
  missing: string[];
  /** ChatGPT's `export_manifest.json` files, with the files each lists that were not given. */
  exportManifests: { file: string; missing: string[] }[];
}

/**
 * Claude.ai's 2026 export arrives as a manifest of download links to its parts (zips and JSON
 * files). Each part the manifest lists must be among the inputs (given together, or in a folder
 * or zip holding them): one that is not is reported as an error (what it holds is lost), and a
 * manifest given without any of them is not an export at all. The manifest's exact shape is not
 * public, so any string in it naming a `.zip` or `.json` file (a name, or a URL's last segment)
 * counts as a listed part.
 */
export async function checkDeliveryManifests(
  claims: readonly Claim[],
  sources: readonly OpenedSource[],
  report: ReportBuilder,
): Promise<DeliveryCheck> {
  const exportManifests: DeliveryCheck['exportManifests'] = [];
  for (const manifest of claims.filter((c) => c.detection.variant === 'export-manifest'))
    exportManifests.push({
      file: manifest.entry.displayPath,
      missing: await checkExportManifest(manifest, claims, report),
    });
  const manifests = claims.filter((c) => c.detection.variant === 'delivery-manifest');
  const present = presentZips(sources);
  const listed = new Set<string>();
  const missing = new Set<string>();
  for (const manifest of manifests) {
    const names = await listedParts(manifest, report);
    for (const name of names) {
      listed.add(name);
      if (present.has(name.toLowerCase()) || missing.has(name)) continue;
      missing.add(name);
      report.add({
        level: 'error',
        code: 'delivery-part-missing',
        message: `the manifest lists ${name}, which was not given: download it from the manifest's link and give it with the other files (or the folder holding them); what it holds was not imported`,
        file: manifest.entry.displayPath,
      });
    }
  }
  return {
    manifests,
    listed: [...listed].sort(),
    missing: [...missing].sort(),
    exportManifests,
  };
}

const SHARD = /^conversations(-\d+)?\.json$/i;

/**
 * ChatGPT's `export_manifest.json` (2026) maps the export's logical files to the files written.
 * Its shape is not public either: the conversation files it names (`conversations-000.json` …,
 * by name or path) are the shards the export should hold. One listed but missing from the
 * export is an error (its conversations are lost); a shard present but not listed is read all
 * the same, with a notice; a manifest naming no shard is a shape chatgraph does not know, so the
 * shards present are read, with a notice.
 */
async function checkExportManifest(
  manifest: Claim,
  claims: readonly Claim[],
  report: ReportBuilder,
): Promise<string[]> {
  const parts = await partsIn(manifest, report);
  const given = new Set(
    claims
      .filter((c) => c.source === manifest.source)
      .map((c) => baseName(c.entry.path).toLowerCase()),
  );
  const notGiven = parts.filter((name) => !given.has(name.toLowerCase()));
  const listed = parts.filter((name) => SHARD.test(name));
  const shards = claims.filter(
    (c) =>
      c.source === manifest.source &&
      c.detection.role === 'conversations' &&
      SHARD.test(baseName(c.entry.path)),
  );
  const file = manifest.entry.displayPath;
  if (listed.length === 0) {
    report.add({
      level: 'info',
      code: 'export-manifest-unknown',
      message: `export_manifest.json names no conversation file in a shape chatgraph knows; the ${plural(shards.length, 'conversation file')} present ${shards.length === 1 ? 'was' : 'were'} read`,
      file,
    });
    return notGiven;
  }
  const present = new Set(shards.map((c) => baseName(c.entry.path).toLowerCase()));
  for (const name of listed) {
    if (present.has(name.toLowerCase())) continue;
    report.add({
      level: 'error',
      code: 'export-shard-missing',
      message: `export_manifest.json lists ${name}, which the export does not hold (a download cut short, or a file left out when unpacking): its conversations were not imported`,
      file,
    });
  }
  const named = new Set(listed.map((name) => name.toLowerCase()));
  for (const shard of shards) {
    if (named.has(baseName(shard.entry.path).toLowerCase())) continue;
    report.add({
      level: 'info',
      code: 'export-shard-unlisted',
      message: 'this conversation file is not listed in export_manifest.json; read all the same',
      file: shard.entry.displayPath,
    });
  }
  return notGiven;
}

/** The error for ChatGPT's `export_manifest.json` given without the export it describes. */
export function exportManifestAlone(manifest: {
  file: string;
  missing: string[];
}): NotAnExportError {
  const shown = manifest.missing.slice(0, 8);
  const more = manifest.missing.length - shown.length;
  const parts =
    manifest.missing.length > 0
      ? `: the ${plural(manifest.missing.length, 'file')} it lists (${shown.join(', ')}${more > 0 ? `, and ${more} more` : ''}) ${manifest.missing.length === 1 ? 'was' : 'were'} not given`
      : '';
  return new NotAnExportError(
    `"${manifest.file}" is ChatGPT's list of the export's files, not the export itself${parts}; give the export's .zip, or the folder it unpacks to`,
  );
}

/** The error for a manifest given without the zips it lists. */
export function manifestAlone(check: DeliveryCheck): NotAnExportError {
  const file = check.manifests[0]?.entry.displayPath ?? 'the manifest';
  const parts = check.listed.length > 0 ? ` (${check.listed.join(', ')})` : '';
  return new NotAnExportError(
    `"${file}" is Claude.ai's list of download links, not the export itself: download the ${plural(check.listed.length, 'file')} it lists${parts} and give them together, or the folder holding them`,
  );
}

function presentZips(sources: readonly OpenedSource[]): Set<string> {
  const present = new Set<string>();
  for (const source of sources) {
    present.add(basename(source.input).toLowerCase());
    for (const entry of source.entries)
      for (const segment of entry.path.split('/')) present.add(segment.toLowerCase());
  }
  return present;
}

async function listedParts(manifest: Claim, report: ReportBuilder): Promise<string[]> {
  const names = await partsIn(manifest, report);
  if (names.length === 0)
    report.add({
      level: 'info',
      code: 'delivery-manifest-unknown',
      message:
        'the download manifest names no .zip or .json file chatgraph recognises; the files given were read as they are',
      file: manifest.entry.displayPath,
    });
  return names;
}

/** Every `.zip` or `.json` file a manifest names (itself left out). */
async function partsIn(manifest: Claim, report: ReportBuilder): Promise<string[]> {
  const text = (await readHead(manifest.entry, MANIFEST_LIMIT)).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    report.add({
      level: 'warning',
      code: 'delivery-manifest-unreadable',
      message: `the manifest is not JSON (${error instanceof Error ? error.message : String(error)}), so the files it lists were not checked`,
      file: manifest.entry.displayPath,
    });
    return [];
  }
  const names = new Set<string>();
  for (const string of stringsIn(value, 0)) {
    const name = partNameOf(string);
    if (name !== undefined && name !== baseName(manifest.entry.path)) names.add(name);
  }
  return [...names].sort();
}

function* stringsIn(value: unknown, depth: number): Generator<string> {
  if (depth > 32) return;
  if (typeof value === 'string') yield value;
  else if (Array.isArray(value)) for (const item of value) yield* stringsIn(item, depth + 1);
  else if (typeof value === 'object' && value !== null)
    for (const item of Object.values(value)) yield* stringsIn(item, depth + 1);
}

// `conversations-000.zip`, `users.json`, or a signed URL whose path ends in one (its query
// string dropped).
function partNameOf(value: string): string | undefined {
  let path = value.trim();
  if (/^https?:\/\//i.test(path)) {
    try {
      path = new URL(path).pathname;
    } catch {
      return undefined;
    }
  }
  let last = path.split('/').at(-1) ?? '';
  try {
    last = decodeURIComponent(last);
  } catch {
    // A stray % in a name: keep it as written.
  }
  return /^[^\\/:*?"<>|\s]+\.(zip|json)$/i.test(last) ? last : undefined;
}
