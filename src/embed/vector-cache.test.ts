import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textHash } from './text-hash.js';
import { VectorCache } from './vector-cache.js';

describe('VectorCache', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chatgraph-cache-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('hashes texts with sha256', () => {
    expect(textHash('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(textHash('é')).toBe(textHash('\u00e9'));
  });

  it('keeps vectors by model and text hash across reopening, as little-endian float32', () => {
    const file = join(dir, 'sub', 'vectors.sqlite');
    const cache = VectorCache.open(file, undefined);
    const a = Float32Array.from([0.5, -0.25, 1e-7]);
    const b = Float32Array.from([1, 2, 3]);
    cache.put('m1', [
      { textHash: textHash('a'), vector: a },
      { textHash: textHash('b'), vector: b },
    ]);
    cache.put('m2', [{ textHash: textHash('a'), vector: b }]);
    cache.close();

    const reopened = VectorCache.open(file, undefined);
    const found = reopened.get('m1', [textHash('a'), textHash('b'), textHash('c')]);
    expect([...found.keys()].sort()).toEqual([textHash('a'), textHash('b')].sort());
    expect(found.get(textHash('a'))).toEqual(a);
    expect(reopened.get('m2', [textHash('a')]).get(textHash('a'))).toEqual(b);
    // Models never mix.
    expect(reopened.get('m3', [textHash('a')]).size).toBe(0);

    reopened.delete('m1', [textHash('a')]);
    expect(reopened.get('m1', [textHash('a'), textHash('b')]).size).toBe(1);
    expect(reopened.get('m2', [textHash('a')]).size).toBe(1);
    reopened.close();

    const raw = new Database(file, { readonly: true });
    const row = raw.prepare('SELECT vector FROM vectors WHERE model_id = ?').get('m2') as {
      vector: Buffer;
    };
    expect(row.vector.readFloatLE(4)).toBe(2);
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('looks up more hashes than one statement takes', () => {
    const cache = VectorCache.open(join(dir, 'many.sqlite'), undefined);
    const entries = Array.from({ length: 1200 }, (_, i) => ({
      textHash: textHash(String(i)),
      vector: Float32Array.from([i]),
    }));
    cache.put('m', entries);
    const found = cache.get(
      'm',
      entries.map((entry) => entry.textHash),
    );
    expect(found.size).toBe(1200);
    expect(found.get(textHash('1199'))?.[0]).toBe(1199);
    cache.delete(
      'm',
      entries.map((entry) => entry.textHash),
    );
    expect(cache.get('m', [textHash('5')]).size).toBe(0);
    cache.close();
  });
});
