import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Int8Vectors, quantizeVector } from './int8-vectors.js';

const vectorArb = fc.array(fc.float({ min: -1, max: 1, noNaN: true, noDefaultInfinity: true }), {
  minLength: 24,
  maxLength: 24,
});

describe('Int8Vectors', () => {
  it('estimates a dot product within half a step of each value', () => {
    fc.assert(
      fc.property(vectorArb, vectorArb, (v, q) => {
        const vector = Float32Array.from(v);
        const query = Float32Array.from(q);
        const store = new Int8Vectors(24, 1);
        store.set(0, quantizeVector(vector));
        const out = new Float32Array(1);
        store.score(query, [0], out);
        const exact = vector.reduce((sum, x, i) => sum + x * (query[i] ?? 0), 0);
        const largest = Math.max(...vector.map(Math.abs));
        const bound = query.reduce((sum, x) => sum + Math.abs(x), 0) * (largest / 127) * 0.5;
        expect(Math.abs((out[0] ?? NaN) - exact)).toBeLessThanOrEqual(bound + 1e-5);
      }),
    );
  });

  it('keeps its vectors when it grows', () => {
    const vector = Float32Array.from({ length: 24 }, (_, i) => Math.sin(i));
    const store = new Int8Vectors(24, 1);
    store.set(0, quantizeVector(vector));
    store.grow(2);
    store.set(1, quantizeVector(vector));
    const out = new Float32Array(2);
    store.score(vector, [0, 1], out);
    expect(out[0]).toBe(out[1]);
    expect(Math.abs((out[0] ?? NaN) / vector.reduce((s, x) => s + x * x, 0) - 1)).toBeLessThan(
      0.01,
    );
  });

  it('refuses a stored vector of another width', () => {
    expect(() => {
      new Int8Vectors(24, 1).set(0, new Uint8Array(10));
    }).toThrow('a stored vector of 10 bytes does not fit 24 dimensions');
  });
});
