import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { fileEntry } from '../read/file-entry.js';
import type { ImportReport, ReportBuilder } from './import-report.js';
import type { Entry } from '../read/entry.js';
import type { Claim } from './claim.js';
import { fileFingerprint, type ConvertOptions } from './convert-options.js';

/**
 * Stage 2, checksum: each conversations file's sha256 (each conversation names its source
 * file's), before any is parsed, so a file imported before is skipped unread. A zipped file
 * whose path, size and CRC-32 match one imported before is not even hashed again.
 */
export async function checksumClaims(
  claims: readonly Claim[],
  options: Pick<ConvertOptions, 'knownFiles' | 'onProgress' | 'signal'>,
): Promise<void> {
  const total = claims.reduce((sum, c) => sum + (c.entry.size ?? 0), 0);
  let hashed = 0;
  for (const claim of claims) {
    options.signal?.throwIfAborted();
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
    // A file set's checksum covers the files read beside it: a Cline task whose ui_messages.json
    // changed is read again; so does a SQLite store's, its -wal.
    const entries = [
      claim.entry,
      ...(claim.sides ?? []).map((side) => side.entry),
      ...(await walOf(claim)),
    ];
    const { checksum, bytes } = await checksumOf(entries, (n) => {
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
}

/** Lists every claimed file in the report, with its checksum and size when known. */
export function reportFiles(claims: readonly Claim[], report: ReportBuilder): void {
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
}

// A SQLite store in WAL mode keeps its latest commits in the `-wal` beside it, until the agent
// checkpoints them: a change only there must make the store count as changed.
async function walOf(claim: Claim): Promise<Entry[]> {
  const file = claim.entry.localFile;
  if (claim.detection.format.kind !== 'sqlite' || file === undefined) return [];
  const wal = `${file}-wal`;
  const info = await stat(wal).catch(() => undefined);
  return info?.isFile() === true ? [fileEntry(wal, '-wal', wal, info.size, info.mtime)] : [];
}

async function checksumOf(
  entries: readonly Entry[],
  onBytes: (n: number) => void,
): Promise<{ checksum: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for (const [i, entry] of entries.entries()) {
    // Each side file's bytes follow its name, so moving bytes between files changes the sum.
    if (i > 0) hash.update(`\0${entry.path}\0`);
    let stream;
    try {
      stream = await entry.open();
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        hash.update(chunk);
        if (i === 0) bytes += chunk.length;
        onBytes(chunk.length);
      }
    } catch {
      // A damaged file: the checksum covers the bytes that could be read; the reading pass
      // reports the damage with its offset.
      stream?.destroy();
    }
  }
  return { checksum: `sha256:${hash.digest('hex')}`, bytes };
}
