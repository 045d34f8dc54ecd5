import { Transform, type TransformCallback } from 'node:stream';
import { crc32 } from 'node:zlib';

/** The error a zip entry whose bytes do not match the CRC-32 its zip records ends with. */
export class ZipCrcError extends Error {
  constructor(name: string, actual: number, expected: number) {
    super(
      `zip entry "${name}" is damaged: its bytes have CRC-32 ${hex(actual)}, the zip records ${hex(expected)}`,
    );
    this.name = 'ZipCrcError';
  }
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}

/**
 * Passes an entry's decompressed bytes through and, at their end, checks them against the CRC-32
 * the zip records: a damaged download or disk is an error of that entry (its reader reports it),
 * not silently wrong text.
 */
export class CrcCheck extends Transform {
  private crc = 0;

  constructor(
    private readonly entryName: string,
    private readonly expected: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.crc = crc32(chunk, this.crc);
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    // Unsigned: the zip field is read with readUInt32LE.
    const actual = this.crc >>> 0;
    callback(
      actual === this.expected >>> 0
        ? null
        : new ZipCrcError(this.entryName, actual, this.expected),
    );
  }
}
