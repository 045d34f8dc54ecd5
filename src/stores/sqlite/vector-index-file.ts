import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { z } from 'zod';
import { writeFileAtomicSync } from '../../bundle/atomic-write.js';
import { BinaryIndex, type IndexSnapshot } from '../vectors/binary-index.js';

/**
 * The in-memory vector index saved beside the store, so a new process (each `chatgraph search`
 * from a shell) reads one file instead of every vector row: measured at 1,000,000 units, the
 * rows cost 9 s of CPU, the file well under one. It is a cache: it names the vectors'
 * generation and is used only while that matches; it is removed whenever the vectors change,
 * so a deleted conversation's vectors do not outlive it here. Its header carries the sha256 of
 * the arrays, so bytes damaged behind an intact header are not served: the rows are read again.
 */

const MAGIC = Buffer.from('chatgraph vector index 2\n');

const Header = z.object({
  generation: z.string(),
  dimensions: z.number().int().positive(),
  size: z.number().int().nonnegative(),
  symbols: z.array(z.string()),
  /** Hex sha256 of every byte after the header (the padded arrays). */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});

/** The arrays of a snapshot, in file order, each with its element size. */
function arraysOf(s: IndexSnapshot): Uint8Array[] {
  return [s.ids, s.codes, s.vectors, s.scales, s.sources, s.roles, s.times].map(
    (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength),
  );
}

const pad = (n: number): number => (8 - (n % 8)) % 8;

/** Saves the index (best effort: a folder that cannot be written only costs the next load). */
export function saveIndexFile(file: string, generation: string, index: BinaryIndex): void {
  const snapshot = index.snapshot();
  const body: Uint8Array[] = [];
  const hash = createHash('sha256');
  // Offsets in the file depend on the header's length, which the checksum is part of: the
  // arrays are aligned within the body, and the body starts on an 8-byte boundary.
  let at = 0;
  for (const array of arraysOf(snapshot)) {
    const gap = new Uint8Array(pad(at));
    body.push(gap, array);
    hash.update(gap).update(array);
    at += gap.byteLength + array.byteLength;
  }
  const header = Buffer.from(
    JSON.stringify({
      generation,
      dimensions: snapshot.dimensions,
      size: snapshot.ids.length,
      symbols: snapshot.symbols,
      sha256: hash.digest('hex'),
    }),
  );
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.byteLength);
  const headerEnd = MAGIC.byteLength + 4 + header.byteLength;
  const parts: Uint8Array[] = [MAGIC, length, header, new Uint8Array(pad(headerEnd)), ...body];
  try {
    writeFileAtomicSync(file, parts, { durable: false });
  } catch {
    // A cache: the next process reads the rows again.
  }
}

/** The saved index, if the file is there, whole, and of this generation of the vectors. */
export function readIndexFile(
  file: string,
  generation: string,
  dimensions: number,
): BinaryIndex | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  if (!bytes.subarray(0, MAGIC.byteLength).equals(MAGIC)) return undefined;
  const length = bytes.readUInt32LE(MAGIC.byteLength);
  let at = MAGIC.byteLength + 4;
  let header: unknown;
  try {
    header = JSON.parse(bytes.subarray(at, at + length).toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = Header.safeParse(header);
  if (!parsed.success || parsed.data.generation !== generation) return undefined;
  if (parsed.data.dimensions !== dimensions) return undefined;
  const { size, symbols } = parsed.data;
  at += length;
  at += pad(at);
  const bodyStart = at;
  const sha256 = createHash('sha256').update(bytes.subarray(bodyStart)).digest('hex');
  if (sha256 !== parsed.data.sha256) return undefined;
  const words = Math.ceil(Math.ceil(dimensions / 32) / 12) * 12;
  const take = <T>(
    count: number,
    width: number,
    make: (b: ArrayBufferLike, offset: number, length: number) => T,
  ): T | undefined => {
    at += pad(at - bodyStart);
    if (at + count * width > bytes.byteLength) return undefined;
    const start = bytes.byteOffset + at;
    at += count * width;
    // A view where the file's buffer is aligned (it is, for a file this size); else a copy.
    if (start % width === 0) return make(bytes.buffer, start, count);
    return make(bytes.buffer.slice(start, start + count * width), 0, count);
  };
  const snapshot = {
    dimensions,
    symbols,
    ids: take(size, 4, (b, o, n) => new Int32Array(b, o, n)),
    codes: take(size * words, 4, (b, o, n) => new Uint32Array(b, o, n)),
    vectors: take(size * dimensions, 1, (b, o, n) => new Int8Array(b, o, n)),
    scales: take(size, 4, (b, o, n) => new Float32Array(b, o, n)),
    sources: take(size, 1, (b, o, n) => new Uint8Array(b, o, n)),
    roles: take(size, 1, (b, o, n) => new Uint8Array(b, o, n)),
    times: take(size, 8, (b, o, n) => new Float64Array(b, o, n)),
  };
  if (at !== bytes.byteLength) return undefined;
  const { ids, codes, vectors, scales, sources, roles, times } = snapshot;
  if (!ids || !codes || !vectors || !scales || !sources || !roles || !times) return undefined;
  return BinaryIndex.fromSnapshot({
    dimensions,
    symbols,
    ids,
    codes,
    vectors,
    scales,
    sources,
    roles,
    times,
  });
}

/** Removes the saved index (the vectors changed). */
export function removeIndexFile(file: string): void {
  rmSync(file, { force: true });
}
