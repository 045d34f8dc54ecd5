import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundDepth, CUT_MARK } from './bound-depth.js';

function depthOf(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    max = Math.max(max, depth);
    if (node !== null && typeof node === 'object')
      for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

describe('boundDepth', () => {
  it('cuts 100,000 levels of nesting without recursion, and the rest can be written', () => {
    const text = `{"keep":1,"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const value = JSON.parse(text) as Record<string, unknown>;
    expect(boundDepth(value, 50)).toBe(1);
    expect(value.keep).toBe(1);
    // 22 KB of brackets no longer grows into an indented file of hundreds of megabytes.
    expect(JSON.stringify(value, null, 2).length).toBeLessThan(10_000);
  });

  it('leaves every value within the bound as it was, and cuts only what is deeper (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 1, max: 12 }), (json, max) => {
        const original = JSON.stringify(json);
        const copy = JSON.parse(original) as unknown;
        const cuts = boundDepth(copy, max);
        expect(depthOf(copy)).toBeLessThanOrEqual(max);
        if (depthOf(json) <= max - 1 || cuts === 0) expect(JSON.stringify(copy)).toBe(original);
        if (cuts > 0) expect(JSON.stringify(copy)).toContain(JSON.stringify(CUT_MARK));
      }),
      { numRuns: 500 },
    );
  });
});
