import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Chunks } from './utf8-chunks.js';

async function decode(bytes: Buffer, cuts: number[]): Promise<string> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(from, point));
    from = point;
  }
  const out: Buffer[] = [];
  async function* source(): AsyncGenerator<Buffer> {
    for (const piece of pieces) yield await Promise.resolve(piece);
  }
  for await (const chunk of utf8Chunks(source())) out.push(chunk);
  return Buffer.concat(out).toString('utf8');
}

describe('utf8Chunks', () => {
  it('decodes UTF-16 (either byte order) with a byte-order mark however the bytes are cut (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.boolean(),
        async (text, cuts, bigEndian) => {
          const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
          const bytes = bigEndian ? Buffer.from(le).swap16() : le;
          expect(await decode(bytes, cuts)).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('passes UTF-8 through unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (text, cuts) => {
          expect(await decode(Buffer.from(text, 'utf8'), cuts)).toBe(text);
        },
      ),
      { numRuns: 300 },
    );
  });
});
