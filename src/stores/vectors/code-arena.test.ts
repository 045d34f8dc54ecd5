import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import wabt from 'wabt';
import { describe, expect, it } from 'vitest';
import { scanCodes } from './binary-index.js';
import { CodeArena } from './code-arena.js';
import { HAMMING_WASM } from './hamming-wasm.js';

function popcount(x: number): number {
  let count = 0;
  for (let v = x >>> 0; v !== 0; v >>>= 1) count += v & 1;
  return count;
}

describe('the SIMD kernel', () => {
  it('is hamming.wat as wabt assembles it (run `npm run assemble` after editing the .wat)', async () => {
    const text = readFileSync(new URL('./hamming.wat', import.meta.url), 'utf8');
    const module = (await wabt()).parseWat('hamming.wat', text, { simd: true });
    module.validate();
    const { buffer } = module.toBinary({ canonicalize_lebs: true, write_debug_names: false });
    module.destroy();
    expect(Buffer.from(buffer).toString('base64')).toBe(HAMMING_WASM);
  });
});

describe('CodeArena', () => {
  it('gives each code its Hamming distance to the query, across growth and widths', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(12, 24, 36),
        fc.array(
          fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 36, maxLength: 36 }),
          {
            minLength: 1,
            maxLength: 40,
          },
        ),
        fc.array(fc.integer({ min: 0, max: 0xffffffff }), { minLength: 36, maxLength: 36 }),
        (stride, codes, query) => {
          const arena = new CodeArena(stride, 2);
          codes.forEach((code, i) => {
            if (i >= 2 && (i & (i - 1)) === 0) arena.grow(i * 2);
            arena.codes.set(code.slice(0, stride), i * stride);
          });
          const q = Uint32Array.from(query.slice(0, stride));
          const got = arena.distances(q, codes.length);
          expect(got).toBeDefined();
          const expected = codes.map((code) =>
            code.slice(0, stride).reduce((sum, word, w) => sum + popcount(word ^ (q[w] ?? 0)), 0),
          );
          expect([...(got?.distances ?? [])]).toEqual(expected);
          // The kernel counts how many codes lie at each distance.
          const histogram = new Array<number>(stride * 32 + 2).fill(0);
          for (const d of expected) histogram[d] = (histogram[d] ?? 0) + 1;
          expect([...(got?.histogram ?? [])]).toEqual(histogram);
          // The JavaScript scan (where there is no SIMD) agrees.
          expect([...scanCodes(arena.codes, stride, codes.length, q)]).toEqual(expected);
        },
      ),
    );
  });

  it('keeps its codes when it grows', () => {
    const arena = new CodeArena(12, 1);
    arena.codes.set([0xffffffff], 0);
    arena.grow(100_000);
    expect(arena.codes[0]).toBe(0xffffffff);
    expect(arena.distances(new Uint32Array(12), 1)?.distances).toEqual(new Uint16Array([32]));
    // A second scan counts afresh.
    expect(arena.distances(new Uint32Array(12), 1)?.histogram[32]).toBe(1);
  });
});
