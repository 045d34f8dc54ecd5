import { open, type FileHandle } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Entry } from './entry.js';
import { MAX_INFLATE_RATIO, RATIO_FLOOR_BYTES } from './zip-limits.js';
import { CrcCheck } from './crc-check.js';

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_END = 0x06064b50;

/** One member of a zip as its central directory (or a scan of local headers) describes it. */
export interface ZipMember {
  name: string;
  method: number;
  flags: number;
  compressedSize: number | undefined;
  size: number | undefined;
  /** Offset of the local header (from the central directory) or of the data (from a scan). */
  headerOffset: number;
  dataOffset?: number;
  /** From a scan of local headers, the end of the region the data may occupy. */
  dataEnd?: number;
  modified: Date | undefined;
  crc32: number | undefined;
}

/** The result of opening a zip: its entries and what was wrong with the archive itself. */
export interface ZipListing {
  entries: Entry[];
  problems: Diagnostic[];
}

/** True when the first bytes are a zip signature (whatever the file's name). */
export function isZipHead(head: Uint8Array): boolean {
  return (
    head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5)
  );
}

/**
 * Lists a zip's entries from its central directory or, when that is missing or damaged (a cut
 * download), from the local headers, as far as they are whole. Data is read lazily per entry.
 */
export async function openZip(path: string, displayName: string): Promise<ZipListing> {
  const problems: Diagnostic[] = [];
  const handle = await open(path, 'r');
  let members: ZipMember[];
  try {
    const { size } = await handle.stat();
    const read = (offset: number, length: number): Promise<Buffer> =>
      readAt(handle, offset, length);
    const central = await readCentralDirectory(read, size).catch((error: unknown) => {
      problems.push({
        level: 'warning',
        code: 'zip-central-directory-damaged',
        message: `the zip's central directory is missing or damaged (${String(error instanceof Error ? error.message : error)}); reading entries from their local headers`,
        file: displayName,
      });
      return undefined;
    });
    members = central ?? (await scanLocalHeaders(handle, size, displayName, problems));
  } finally {
    await handle.close();
  }
  const entries: Entry[] = [];
  for (const member of members) {
    if (member.name.endsWith('/')) continue;
    if (isUnsafeName(member.name)) {
      problems.push({
        level: 'error',
        code: 'zip-unsafe-path',
        message: `refused zip entry "${member.name}": its path would escape the output folder`,
        file: displayName,
      });
      continue;
    }
    if (member.method !== 0 && member.method !== 8) {
      problems.push({
        level: 'warning',
        code: 'zip-unsupported-method',
        message: `skipped zip entry "${member.name}": compression method ${member.method} is not supported (only stored and deflate)`,
        file: displayName,
      });
      continue;
    }
    entries.push(toEntry(path, displayName, member));
  }
  return { entries, problems };
}

function isUnsafeName(name: string): boolean {
  const normalized = name.replace(/\\/g, '/');
  return (
    normalized.startsWith('/') ||
    /^[a-zA-Z]:/.test(normalized) ||
    normalized.split('/').some((segment) => segment === '..')
  );
}

function dosDate(date: number, time: number): Date | undefined {
  if (date === 0) return undefined;
  const year = ((date >> 9) & 0x7f) + 1980;
  const month = ((date >> 5) & 0x0f) - 1;
  const day = date & 0x1f;
  const result = new Date(
    Date.UTC(year, month, day, (time >> 11) & 0x1f, (time >> 5) & 0x3f, (time & 0x1f) * 2),
  );
  return Number.isNaN(result.getTime()) ? undefined : result;
}

function decodeName(bytes: Buffer, flags: number): string {
  // Bit 11: UTF-8 names. Without it the name is CP437, which for the ASCII names exports use
  // is the same; latin1 keeps any other byte visible rather than failing.
  return flags & 0x800 ? bytes.toString('utf8') : bytes.toString('latin1');
}

async function readAt(handle: FileHandle, offset: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, offset);
  return buffer.subarray(0, bytesRead);
}

/** Reads `length` bytes at `offset` (fewer at the end): a file, or HTTP Range requests. */
export type ByteReader = (offset: number, length: number) => Promise<Buffer>;

/** Where the central directory is and how many records it holds, from the end records. */
async function findCentralDirectory(
  read: ByteReader,
  size: number,
): Promise<{ count: number; cdSize: number; cdOffset: number }> {
  const tailLength = Math.min(size, 65_557 + 20);
  const tail = await read(size - tailLength, tailLength);
  let eocd = -1;
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === END_OF_CENTRAL) {
      eocd = i;
      break;
    }
  }
  if (eocd === -1) throw new Error('no end-of-central-directory record');
  let count = tail.readUInt16LE(eocd + 10);
  let cdSize = tail.readUInt32LE(eocd + 12);
  let cdOffset = tail.readUInt32LE(eocd + 16);
  const locator = eocd - 20;
  if (locator >= 0 && tail.readUInt32LE(locator) === ZIP64_LOCATOR) {
    const endOffset = Number(tail.readBigUInt64LE(locator + 8));
    const end = await read(endOffset, 56);
    if (end.length < 56 || end.readUInt32LE(0) !== ZIP64_END)
      throw new Error('bad zip64 end record');
    count = Number(end.readBigUInt64LE(32));
    cdSize = Number(end.readBigUInt64LE(40));
    cdOffset = Number(end.readBigUInt64LE(48));
  } else if (cdOffset === 0xffffffff) {
    // Info-ZIP's `zip -fz` writing to a pipe marks the offset as zip64 but writes no zip64
    // record: the directory ends where the end record starts (as unzip assumes too).
    cdOffset = size - tailLength + eocd - cdSize;
  }
  if (cdOffset < 0 || cdOffset + cdSize > size)
    throw new Error('central directory lies past the end of the file');
  return { count, cdSize, cdOffset };
}

/** The members a zip's central directory lists, read through `read` from a zip of `size` bytes. */
export async function readCentralDirectory(read: ByteReader, size: number): Promise<ZipMember[]> {
  const { count, cdSize, cdOffset } = await findCentralDirectory(read, size);
  const cd = await read(cdOffset, cdSize);
  const members: ZipMember[] = [];
  let p = 0;
  for (let i = 0; i < count; i++) {
    if (p + 46 > cd.length || cd.readUInt32LE(p) !== CENTRAL_HEADER) {
      throw new Error(`central directory record ${i} is damaged`);
    }
    const flags = cd.readUInt16LE(p + 8);
    const method = cd.readUInt16LE(p + 10);
    const time = cd.readUInt16LE(p + 12);
    const date = cd.readUInt16LE(p + 14);
    const crc32 = cd.readUInt32LE(p + 16);
    let compressedSize = cd.readUInt32LE(p + 20);
    let uncompressedSize = cd.readUInt32LE(p + 24);
    const nameLength = cd.readUInt16LE(p + 28);
    const extraLength = cd.readUInt16LE(p + 30);
    const commentLength = cd.readUInt16LE(p + 32);
    let headerOffset = cd.readUInt32LE(p + 42);
    const name = decodeName(cd.subarray(p + 46, p + 46 + nameLength), flags);
    // Zip64: the 0xffffffff fields are in the extra field 0x0001, in this order.
    let e = p + 46 + nameLength;
    const extraEnd = e + extraLength;
    while (e + 4 <= extraEnd) {
      const id = cd.readUInt16LE(e);
      const len = cd.readUInt16LE(e + 2);
      if (id === 1) {
        let q = e + 4;
        if (uncompressedSize === 0xffffffff) {
          uncompressedSize = Number(cd.readBigUInt64LE(q));
          q += 8;
        }
        if (compressedSize === 0xffffffff) {
          compressedSize = Number(cd.readBigUInt64LE(q));
          q += 8;
        }
        if (headerOffset === 0xffffffff) headerOffset = Number(cd.readBigUInt64LE(q));
      }
      e += 4 + len;
    }
    if (headerOffset + 30 > size)
      throw new Error(`entry "${name}" points past the end of the file`);
    members.push({
      name,
      method,
      flags,
      compressedSize,
      size: uncompressedSize,
      headerOffset,
      modified: dosDate(date, time),
      crc32,
    });
    p = extraEnd + commentLength;
  }
  return members;
}

/** Walks the file for local headers: the fallback for a zip without a usable central directory. */
async function scanLocalHeaders(
  handle: FileHandle,
  size: number,
  displayName: string,
  problems: Diagnostic[],
): Promise<ZipMember[]> {
  const members: ZipMember[] = [];
  const chunkSize = 1 << 20;
  const signature = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
  let position = 0;
  while (position < size) {
    const chunk = await readAt(handle, position, Math.min(chunkSize + 3, size - position));
    const at = chunk.indexOf(signature);
    if (at === -1) {
      position += chunkSize;
      continue;
    }
    const headerOffset = position + at;
    const header = await readAt(handle, headerOffset, 30);
    if (header.length < 30) break;
    const flags = header.readUInt16LE(6);
    const method = header.readUInt16LE(8);
    const nameLength = header.readUInt16LE(26);
    const extraLength = header.readUInt16LE(28);
    const plausible = (method === 0 || method === 8) && nameLength > 0 && nameLength < 4096;
    if (!plausible) {
      position = headerOffset + 1;
      continue;
    }
    const nameBytes = await readAt(handle, headerOffset + 30, nameLength);
    const dataOffset = headerOffset + 30 + nameLength + extraLength;
    const known = (flags & 0x08) === 0;
    const compressedSize = known ? header.readUInt32LE(18) : undefined;
    const member: ZipMember = {
      name: decodeName(nameBytes, flags),
      method,
      flags,
      compressedSize,
      size: known ? header.readUInt32LE(22) : undefined,
      headerOffset,
      dataOffset,
      modified: dosDate(header.readUInt16LE(12), header.readUInt16LE(10)),
      crc32: known ? header.readUInt32LE(14) : undefined,
    };
    const previous = members.at(-1);
    if (previous && previous.dataEnd === undefined) previous.dataEnd = headerOffset;
    members.push(member);
    if (compressedSize !== undefined && dataOffset + compressedSize <= size) {
      member.dataEnd = dataOffset + compressedSize;
      position = dataOffset + compressedSize;
    } else {
      if (compressedSize !== undefined) {
        problems.push({
          level: 'warning',
          code: 'zip-entry-truncated',
          message: `zip entry "${member.name}" is cut short: the file ends before its data does`,
          file: displayName,
          offset: headerOffset,
        });
        member.compressedSize = undefined;
        member.size = undefined;
      }
      position = dataOffset;
    }
  }
  const last = members.at(-1);
  if (last && last.dataEnd === undefined) last.dataEnd = size;
  return members;
}

function toEntry(zipPath: string, displayName: string, member: ZipMember): Entry {
  return {
    path: member.name,
    displayPath: `${displayName}!${member.name}`,
    size: member.size,
    modified: member.modified,
    ...(member.crc32 !== undefined ? { crc32: member.crc32 } : {}),
    ...(member.compressedSize !== undefined ? { compressedSize: member.compressedSize } : {}),
    async open(): Promise<Readable> {
      let start = member.dataOffset;
      if (start === undefined) {
        const handle = await open(zipPath, 'r');
        try {
          const header = await readAt(handle, member.headerOffset, 30);
          if (header.length < 30 || header.readUInt32LE(0) !== LOCAL_HEADER) {
            throw new Error(
              `zip entry "${member.name}" has no local header where the directory says`,
            );
          }
          start = member.headerOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
        } finally {
          await handle.close();
        }
      }
      const end =
        member.compressedSize !== undefined ? start + member.compressedSize : member.dataEnd;
      if (end !== undefined && end <= start) return checked(member, emptyStream());
      const raw = createReadStream(zipPath, {
        start,
        ...(end !== undefined ? { end: end - 1 } : {}),
        highWaterMark: 1 << 20,
      });
      if (member.method === 0) return checked(member, raw);
      const guard = new InflateGuard(member.name, member.size);
      const inflate = createInflateRaw({ chunkSize: 1 << 18 });
      raw.on('data', (chunk: Buffer | string) => {
        guard.compressedBytes += chunk.length;
      });
      raw.on('error', (error) => inflate.destroy(error));
      inflate.on('error', (error) => guard.destroy(error));
      raw.pipe(inflate).pipe(guard);
      return checked(member, guard);
    },
  };
}

/** The entry's bytes, checked against its recorded CRC-32 at their end (when one is recorded). */
function checked(member: ZipMember, stream: Readable): Readable {
  if (member.crc32 === undefined) return stream;
  const check = new CrcCheck(member.name, member.crc32);
  stream.on('error', (error) => check.destroy(error));
  return stream.pipe(check);
}

function emptyStream(): Readable {
  const stream = new Transform();
  stream.end();
  return stream;
}

/** Refuses an entry that inflates past its declared size or a sane ratio (a zip bomb). */
class InflateGuard extends Transform {
  compressedBytes = 0;
  private produced = 0;
  constructor(
    private readonly name: string,
    private readonly declared: number | undefined,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.produced += chunk.length;
    if (this.declared !== undefined && this.produced > this.declared + 1024) {
      callback(
        new Error(
          `zip entry "${this.name}" inflates past its declared size of ${this.declared} bytes (refused as a zip bomb)`,
        ),
      );
      return;
    }
    if (
      this.produced > RATIO_FLOOR_BYTES &&
      this.produced > MAX_INFLATE_RATIO * Math.max(1, this.compressedBytes)
    ) {
      callback(
        new Error(
          `zip entry "${this.name}" inflates more than ${MAX_INFLATE_RATIO} times its compressed size (${this.produced} bytes from ${this.compressedBytes}, past the ${RATIO_FLOOR_BYTES} bytes below which the ratio is not checked; refused as a zip bomb)`,
        ),
      );
      return;
    }
    callback(null, chunk);
  }
}
