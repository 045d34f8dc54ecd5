import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bagOfWords } from '../../test/contract/vector-contract.js';
import { tempDir } from '../../test/support/convert-to-temp.js';
import { embeddingsErrors } from '../../test/support/pam-validator.js';
import { embedMemories, pruneMemoryEmbeddings, readMemoryVectors } from './embed-memories.js';
import { bundleAt } from '../../test/support/bundle-at.js';

function memory(id: string, content: string): Record<string, unknown> {
  return {
    id,
    type: 'fact',
    content,
    content_hash: 'sha256:'.padEnd(71, '0'),
    temporal: { created_at: '2025-01-01T00:00:00Z' },
    provenance: { platform: 'claude' },
  };
}

function writeStore(bundle: string, memories: Record<string, unknown>[]): void {
  mkdirSync(bundle, { recursive: true });
  writeFileSync(join(bundle, 'memory-store.json'), JSON.stringify({ memories }));
}

class MapCache {
  readonly map = new Map<string, Float32Array>();
  get(model: string, hashes: readonly string[]): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    for (const h of hashes) {
      const v = this.map.get(`${model}/${h}`);
      if (v) out.set(h, v);
    }
    return out;
  }
  put(model: string, entries: readonly { textHash: string; vector: Float32Array }[]): void {
    for (const e of entries) this.map.set(`${model}/${e.textHash}`, e.vector);
  }
}

describe('embedMemories', () => {
  it('writes a PAM embeddings file the official schema accepts, one vector per memory, and keeps it in step', async () => {
    const bundle = join(tempDir(), 'bundle');
    writeStore(bundle, [memory('m1', 'likes sourdough bread'), memory('m2', 'runs marathons')]);
    const cache = new MapCache();
    const first = await embedMemories(
      bundleAt(bundle),
      bagOfWords,
      cache,
      () => '2026-01-01T00:00:00Z',
    );
    expect(first).toMatchObject({ memories: 2, embedded: 2 });
    const file = JSON.parse(readFileSync(join(bundle, 'embeddings.json'), 'utf8')) as {
      embeddings: { memory_id: string; dimensions: number; vector: number[]; created_at: string }[];
    };
    expect(embeddingsErrors(file)).toEqual([]);
    expect(file.embeddings.map((e) => e.memory_id)).toEqual(['m1', 'm2']);
    expect(file.embeddings[0]?.vector).toHaveLength(bagOfWords.model.dimensions);

    writeStore(bundle, [memory('m2', 'runs marathons')]);
    const second = await embedMemories(
      bundleAt(bundle),
      bagOfWords,
      cache,
      () => '2027-01-01T00:00:00Z',
    );
    expect(second).toMatchObject({ memories: 1, embedded: 0 });
    const after = JSON.parse(readFileSync(join(bundle, 'embeddings.json'), 'utf8')) as typeof file;
    expect(after.embeddings.map((e) => [e.memory_id, e.created_at])).toEqual([
      ['m2', '2026-01-01T00:00:00Z'],
    ]);
    expect(embeddingsErrors(after)).toEqual([]);
  });

  it('gives a forgotten memory no vector, drops it without a model, and reads the vectors back', async () => {
    const bundle = join(tempDir(), 'bundle');
    writeStore(bundle, [memory('m1', 'likes sourdough bread'), memory('m2', 'runs marathons')]);
    await embedMemories(bundleAt(bundle), bagOfWords, undefined);
    const retracted = { ...memory('m1', 'likes sourdough bread'), status: 'retracted' };
    writeStore(bundle, [retracted, memory('m2', 'runs marathons')]);
    expect(await pruneMemoryEmbeddings(bundleAt(bundle))).toBe(1);
    expect(await pruneMemoryEmbeddings(bundleAt(bundle))).toBe(0);
    const vectors = await readMemoryVectors(bundleAt(bundle));
    expect(vectors.map((v) => [v.memoryId, v.model, v.vector.length])).toEqual([
      ['m2', bagOfWords.model.id, bagOfWords.model.dimensions],
    ]);
    const [m2] = await bagOfWords.embed(['runs marathons']);
    expect(Array.from(vectors[0]?.vector ?? [])).toEqual(Array.from(m2 ?? []).map(Math.fround));
    // The embedder gives the retracted one none either.
    expect(await embedMemories(bundleAt(bundle), bagOfWords, undefined)).toMatchObject({
      memories: 1,
    });
    writeFileSync(join(bundle, 'embeddings.json'), '{"embeddings": [');
    await expect(readMemoryVectors(bundleAt(bundle))).rejects.toThrow(
      /embeddings\.json is not JSON/,
    );
  });

  it('writes nothing for a bundle without memories', async () => {
    const bundle = join(tempDir(), 'bundle');
    writeStore(bundle, []);
    expect(await embedMemories(bundleAt(bundle), bagOfWords, undefined)).toEqual({
      hashes: [],
      memories: 0,
      embedded: 0,
    });
  });
});
