import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BinaryIndex, toBinaryCode } from './binary-index.js';
import { Int8Vectors, quantizeVector } from './int8-vectors.js';

const vectorArb = fc.array(fc.float({ min: -1, max: 1, noNaN: true }), {
  minLength: 40,
  maxLength: 40,
});

function hamming(a: Float32Array, b: Float32Array): number {
  let d = 0;
  for (let i = 0; i < a.length; i++) if ((a[i] ?? 0) > 0 !== (b[i] ?? 0) > 0) d++;
  return d;
}

describe('BinaryIndex', () => {
  it('returns the units nearest by Hamming distance, ties at the cut included, filters obeyed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ v: vectorArb, source: fc.constantFrom('a', 'b') }), {
          minLength: 1,
          maxLength: 60,
        }),
        vectorArb,
        fc.integer({ min: 1, max: 20 }),
        fc.boolean(),
        (units, q, count, filtered) => {
          const index = new BinaryIndex(40, 4);
          units.forEach((u, id) => {
            index.add({
              id,
              code: toBinaryCode(Float32Array.from(u.v)),
              vector: quantizeVector(Float32Array.from(u.v)),
              source: index.symbol(u.source),
              role: 0,
              time: id,
            });
          });
          const query = Float32Array.from(q);
          const filter = filtered ? { source: index.lookup('a'), since: 3 } : {};
          const got = index.nearest(toBinaryCode(query), count, filter);
          const eligible = units
            .map((u, id) => ({ id, d: hamming(Float32Array.from(u.v), query), s: u.source }))
            .filter((u) => !filtered || (u.s === 'a' && u.id >= 3))
            .sort((a, b) => a.d - b.d);
          const cut = eligible[Math.min(count, eligible.length) - 1]?.d ?? -1;
          const expected = eligible.filter((u) => u.d <= cut).map((u) => u.id);
          expect(new Set(got)).toEqual(new Set(expected));
          const distances = got.map((id) => eligible.find((u) => u.id === id)?.d ?? -1);
          expect(distances).toEqual([...distances].sort((a, b) => a - b));
        },
      ),
    );
  });

  it('finds nothing for a filter value no unit has', () => {
    const index = new BinaryIndex(8);
    index.add({
      id: 1,
      code: new Uint32Array([1]),
      vector: quantizeVector(new Float32Array(8)),
      source: index.symbol('x'),
      role: 0,
      time: 0,
    });
    expect(index.nearest(new Uint32Array([1]), 5, { source: index.lookup('y') })).toEqual([]);
  });

  it('shortlists the Hamming-nearest units best by their signs, then by their int8 vectors', () => {
    fc.assert(
      fc.property(
        fc.array(vectorArb, { minLength: 1, maxLength: 60 }),
        vectorArb,
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 30 }),
        (vectors, q, scan, keep, refine) => {
          const index = new BinaryIndex(40, 4);
          vectors.forEach((v, id) => {
            index.add({
              id,
              code: toBinaryCode(Float32Array.from(v)),
              vector: quantizeVector(Float32Array.from(v)),
              source: 0,
              role: 0,
              time: 0,
            });
          });
          const query = Float32Array.from(q);
          const signs = (v: number[]): number =>
            v.reduce((sum, x, i) => (x > 0 ? sum + (query[i] ?? 0) : sum), 0);
          const int8 = new Int8Vectors(40, vectors.length);
          vectors.forEach((v, id) => {
            int8.set(id, quantizeVector(Float32Array.from(v)));
          });
          const estimate = (id: number): number => {
            const out = new Float32Array(1);
            int8.score(query, [id], out);
            return out[0] ?? NaN;
          };
          const scanned = [...new Set(index.nearest(toBinaryCode(query), scan))];
          const bySigns = scanned.map((id) => signs(vectors[id] ?? [])).sort((a, b) => b - a);
          const signCut = bySigns[Math.min(keep, bySigns.length) - 1] ?? -Infinity;
          const got = index.shortlist(query, { scan, keep, refine });
          expect(got.length).toBe(Math.min(refine, keep, scanned.length));
          // Every one kept by its signs; ordered by its int8 estimate.
          for (const id of got) {
            expect(scanned).toContain(id);
            expect(signs(vectors[id] ?? [])).toBeGreaterThanOrEqual(signCut - 1e-4);
          }
          const estimates = got.map(estimate);
          expect(estimates).toEqual([...estimates].sort((a, b) => b - a));
          // A unit surely kept by its signs but left out is no better by its int8 vector.
          const worst = Math.min(...estimates);
          for (const id of scanned)
            if (!got.includes(id) && signs(vectors[id] ?? []) > signCut + 1e-4)
              expect(estimate(id)).toBeLessThanOrEqual(worst + 1e-4);
        },
      ),
    );
  });

  it('is the same index after a snapshot is taken over, and still grows', () => {
    fc.assert(
      fc.property(fc.array(vectorArb, { minLength: 1, maxLength: 40 }), vectorArb, (vectors, q) => {
        const entry = (v: number[], id: number) => ({
          id,
          code: toBinaryCode(Float32Array.from(v)),
          vector: quantizeVector(Float32Array.from(v)),
          source: 0,
          role: 0,
          time: id,
        });
        const index = new BinaryIndex(40, 4);
        vectors.forEach((v, id) => {
          index.add({ ...entry(v, id), source: index.symbol(id % 2 ? 'odd' : 'even') });
        });
        const copy = BinaryIndex.fromSnapshot(index.snapshot());
        const query = Float32Array.from(q);
        const sizes = { scan: 20, keep: 10, refine: 5 };
        const filter = { source: copy.lookup('odd') };
        expect(copy.shortlist(query, sizes, filter)).toEqual(index.shortlist(query, sizes, filter));
        for (const target of [index, copy]) target.add(entry(q, 999));
        expect(copy.shortlist(query, sizes)).toEqual(index.shortlist(query, sizes));
        expect(copy.length).toBe(vectors.length + 1);
      }),
    );
  });
});
