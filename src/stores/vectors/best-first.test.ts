import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bestFirst } from './best-first.js';

describe('bestFirst', () => {
  it('gives the positions of the highest scores, ties at the cut in position order, as a sort would', () => {
    fc.assert(
      fc.property(
        // Few distinct values, so ties at the cut are common.
        fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 80 }),
        fc.integer({ min: 0, max: 90 }),
        (values, keep) => {
          const scores = Float32Array.from(values);
          const expected = [...scores.keys()]
            .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
            .slice(0, keep);
          expect([...bestFirst(scores, keep, true)]).toEqual(expected);
          const unordered = [...bestFirst(scores, keep, false)].sort((a, b) => a - b);
          expect(unordered).toEqual([...expected].sort((a, b) => a - b));
        },
      ),
    );
  });
});
