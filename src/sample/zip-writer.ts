import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { crc32, createDeflateRaw } from 'node:zlib';

interface Written {
  name: Buffer;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  method: number;
}

/**
 * Writes a zip file entry by entry, streaming each entry's bytes (data descriptors, so sizes
 * need not be known in advance). Used for the bundled samples, tests and the benchmark.
 */
export class ZipWriter {
  private readonly out: WriteStream;
  private offset = 0;
  private readonly written: Written[] = [];

  constructor(path: string) {
    this.out = createWriteStream(path);
  }

  private async write(bytes: Buffer): Promise<void> {
    this.offset += bytes.length;
    if (!this.out.write(bytes)) await once(this.out, 'drain');
  }

  /** Adds an entry from a buffer, a string or a stream of chunks. */
  async add(
    name: string,
    data: Buffer | string | Iterable<Buffer | string> | AsyncIterable<Buffer | string>,
    options: { store?: boolean } = {},
  ): Promise<void> {
    const nameBytes = Buffer.from(name, 'utf8');
    const method = options.store ? 0 : 8;
    const offset = this.offset;
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(0x0808, 6); // data descriptor + UTF-8 names
    header.writeUInt16LE(method, 8);
    header.writeUInt16LE(0, 10);
    header.writeUInt16LE(((2024 - 1980) << 9) | (1 << 5) | 1, 12);
    header.writeUInt16LE(nameBytes.length, 26);
    await this.write(Buffer.concat([header, nameBytes]));
    let crc = 0;
    let size = 0;
    let compressed = 0;
    const chunks: Iterable<Buffer | string> | AsyncIterable<Buffer | string> =
      typeof data === 'string' || Buffer.isBuffer(data) ? [data] : data;
    if (method === 0) {
      for await (const chunk of chunks) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        crc = crc32(bytes, crc);
        size += bytes.length;
        compressed += bytes.length;
        await this.write(bytes);
      }
    } else {
      const deflate = createDeflateRaw({ level: 6 });
      const pump = (async () => {
        for await (const out of deflate as AsyncIterable<Buffer>) {
          compressed += out.length;
          await this.write(out);
        }
      })();
      for await (const chunk of chunks) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
        crc = crc32(bytes, crc);
        size += bytes.length;
        if (!deflate.write(bytes)) await once(deflate, 'drain');
      }
      deflate.end();
      await pump;
    }
    const descriptor = Buffer.alloc(16);
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    descriptor.writeUInt32LE(compressed, 8);
    descriptor.writeUInt32LE(size, 12);
    await this.write(descriptor);
    this.written.push({ name: nameBytes, crc: crc >>> 0, compressed, size, offset, method });
  }

  /** Writes the central directory and closes the file. */
  async close(options: { withoutCentralDirectory?: boolean } = {}): Promise<void> {
    if (!options.withoutCentralDirectory) {
      const start = this.offset;
      for (const entry of this.written) {
        const header = Buffer.alloc(46);
        header.writeUInt32LE(0x02014b50, 0);
        header.writeUInt16LE(20, 4);
        header.writeUInt16LE(20, 6);
        header.writeUInt16LE(0x0808, 8);
        header.writeUInt16LE(entry.method, 10);
        header.writeUInt16LE(((2024 - 1980) << 9) | (1 << 5) | 1, 14);
        header.writeUInt32LE(entry.crc, 16);
        header.writeUInt32LE(entry.compressed, 20);
        header.writeUInt32LE(entry.size, 24);
        header.writeUInt16LE(entry.name.length, 28);
        header.writeUInt32LE(entry.offset, 42);
        await this.write(Buffer.concat([header, entry.name]));
      }
      const count = this.written.length;
      const directorySize = this.offset - start;
      // The classic end record counts entries in 16 bits: past that, a zip64 end record and its
      // locator carry the count, and the classic fields say "see zip64".
      const zip64 = count > 0xffff;
      if (zip64) {
        const endAt = this.offset;
        const record = Buffer.alloc(56);
        record.writeUInt32LE(0x06064b50, 0);
        record.writeBigUInt64LE(44n, 4);
        record.writeUInt16LE(45, 12);
        record.writeUInt16LE(45, 14);
        record.writeBigUInt64LE(BigInt(count), 24);
        record.writeBigUInt64LE(BigInt(count), 32);
        record.writeBigUInt64LE(BigInt(directorySize), 40);
        record.writeBigUInt64LE(BigInt(start), 48);
        const locator = Buffer.alloc(20);
        locator.writeUInt32LE(0x07064b50, 0);
        locator.writeBigUInt64LE(BigInt(endAt), 8);
        locator.writeUInt32LE(1, 16);
        await this.write(Buffer.concat([record, locator]));
      }
      const end = Buffer.alloc(22);
      end.writeUInt32LE(0x06054b50, 0);
      end.writeUInt16LE(zip64 ? 0xffff : count, 8);
      end.writeUInt16LE(zip64 ? 0xffff : count, 10);
      end.writeUInt32LE(directorySize, 12);
      end.writeUInt32LE(start, 16);
      await this.write(end);
    }
    this.out.end();
    await once(this.out, 'close');
  }
}
