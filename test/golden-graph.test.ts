import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertToTemp } from './support/convert-to-temp.js';
import { batchesOf } from './support/graph-fixtures.js';
import { expectGolden } from './support/golden.js';
import { GOLDEN_SOURCES, ROOT, fixturesOf } from './support/shared.js';

describe.each(GOLDEN_SOURCES)('golden graph output for %s fixtures', (folder) => {
  it.each(fixturesOf(folder).map((path) => [basename(path), path]))('%s', async (name, path) => {
    const { conversations, dir } = await convertToTemp([path]);
    const batches = batchesOf(conversations, true, dir);
    for (const batch of batches) {
      const ids = new Set(batch.nodes.map((n) => n.id));
      expect(ids.size).toBe(batch.nodes.length);
      for (const edge of batch.edges) {
        expect(ids.has(edge.from)).toBe(true);
        expect(ids.has(edge.to)).toBe(true);
      }
    }
    expectGolden(join(ROOT, 'test', 'golden', 'graph', folder, `${name}.graph.json`), batches);
  });
});
