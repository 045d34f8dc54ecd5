import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importIdOf } from '../src/graph/import-id.js';
import { projectPlatformProjects } from '../src/graph/platform-projects.js';
import { convertToTemp } from './support/convert-to-temp.js';
import { batchesOf } from './support/graph-fixtures.js';
import { expectGolden } from './support/golden.js';
import { fixtureInput } from './support/sqlite-fixtures.js';
import {
  CORPUS_FOLDERS,
  GOLDEN_SOURCES,
  ROOT,
  corpusOf,
  fixturesOf,
  itReadsTheCorpus,
} from './support/shared.js';

async function expectGoldenGraph(folder: string, name: string, fixture: string): Promise<void> {
  const { conversations, dir, store } = await convertToTemp([fixtureInput(fixture)]);
  const batches = batchesOf(conversations, true, dir);
  const owners = new Set(batches.map((batch) => batch.owner));
  for (const [i, batch] of batches.entries()) {
    const ids = new Set(batch.nodes.map((n) => n.id));
    expect(ids.size).toBe(batch.nodes.length);
    // The Import node is the store's (one per export file), so IMPORTED leaves the batch.
    const checksum = conversations[i]?.import_metadata?.source_checksum;
    expect(checksum).toBeDefined();
    const imported = batch.edges.filter((edge) => edge.kind === 'IMPORTED');
    expect(imported).toEqual([
      { kind: 'IMPORTED', from: importIdOf(checksum ?? ''), to: batch.owner },
    ]);
    for (const edge of batch.edges) {
      if (edge.kind !== 'IMPORTED') expect(ids.has(edge.from)).toBe(true);
      // A call that started a sub-agent points at the sub-agent's conversation, its own batch.
      expect(edge.kind === 'STARTED' ? owners.has(edge.to) : ids.has(edge.to)).toBe(true);
    }
  }
  // Claude.ai projects: their own batches, made from the bundle's project memories.
  const projects = projectPlatformProjects(store.memories);
  for (const batch of projects) {
    const ids = new Set(batch.nodes.map((n) => n.id));
    for (const edge of batch.edges) expect(ids.has(edge.from) && ids.has(edge.to)).toBe(true);
  }
  expectGolden(
    join(ROOT, 'test', 'golden', 'graph', folder, `${name}.graph.json`),
    projects.length > 0 ? [...batches, ...projects] : batches,
  );
}

const named = (paths: string[]): [string, string][] => paths.map((path) => [basename(path), path]);

describe.each(GOLDEN_SOURCES)('golden graph output for %s fixtures', (folder) => {
  it.each(named(fixturesOf(folder)))('%s', async (name, path) => {
    await expectGoldenGraph(folder, name, path);
  });
});

// Conformance layer: the public export samples, with their own golden files.
describe('golden graph output for the public corpus', () => {
  itReadsTheCorpus();
  describe.each(CORPUS_FOLDERS)('%s', (folder) => {
    it.each(named(corpusOf(folder)))('%s', async (name, path) => {
      await expectGoldenGraph(folder, name, path);
    });
  });
});
