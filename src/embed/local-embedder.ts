import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { ModelNotInstalledError } from './embed-errors.js';
import { normalize, type Embedder, type ModelInfo } from './embedder.js';
import { loadTokenizer, type TextTokenizer } from './load-tokenizer.js';

/** A model folder ready to load: `model.onnx`, `tokenizer.json`, and how to pool. */
export interface LocalModelSpec {
  folder: string;
  info: ModelInfo;
  pooling: 'mean' | 'cls';
  /** Put before every text (the model was trained so); counted in its tokens. */
  textPrefix?: string;
}

/** How the ONNX session runs (the defaults are the fastest measured on 2 shared cores). */
export interface LocalRunOptions {
  /** Intra-op threads (default 1: two were slower on 2 shared cores). */
  threads?: number;
  /** At most this many texts per ONNX run, after sorting by token count (default {@link DEFAULT_BATCH}). */
  batchSize?: number;
  /** At most this many tokens per run, padding included (default {@link DEFAULT_TOKEN_BUDGET}). */
  tokenBudget?: number;
}

/** Texts per ONNX run at most. */
export const DEFAULT_BATCH = 16;

/**
 * Padded tokens per ONNX run at most. Measured (bench/embed.mjs): short texts run best in
 * batches of 8-16, texts of 256 tokens alone; a budget of 320 tokens gives both.
 */
export const DEFAULT_TOKEN_BUDGET = 320;

function readJson(path: string): object {
  try {
    const value: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}

/** Token ids of one text, cut to `max` keeping the closing special token (e.g. [SEP]). */
function encode(tokenizer: TextTokenizer, text: string, max: number): number[] {
  const ids = tokenizer.encode(text).ids;
  if (ids.length <= max) return ids;
  const last = ids.at(-1) ?? 0;
  return [...ids.slice(0, max - 1), last];
}

/** Loads an ONNX sentence-embedding model and its tokenizer from a folder. */
export async function openLocalEmbedder(
  spec: LocalModelSpec,
  options: LocalRunOptions = {},
): Promise<Embedder> {
  const tokenizer = await loadTokenizer(
    readJson(join(spec.folder, 'tokenizer.json')),
    readJson(join(spec.folder, 'tokenizer_config.json')),
  );
  const threads = options.threads ?? 1;
  const session = await InferenceSession.create(join(spec.folder, 'model.onnx'), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const tokenBudget = options.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
  const max = spec.info.maxTokens;
  const prefix = spec.textPrefix ?? '';
  const run = (batch: number[][]): Promise<Float32Array[]> => runBatch(session, spec, batch);
  // One probe tells the real dimension: stated ones are checked, unstated ones learnt.
  const dimensions = (await run([encode(tokenizer, 'dimension probe', max)]))[0]?.length ?? 0;
  if (spec.info.dimensions !== 0 && dimensions !== spec.info.dimensions) {
    await session.release();
    throw new ModelNotInstalledError(
      `model ${spec.info.id} in ${spec.folder} gives ${dimensions}-dimensional vectors, not the ${spec.info.dimensions} its description says`,
    );
  }
  return {
    model: { ...spec.info, dimensions },
    countTokens: (text) => tokenizer.encode(prefix + text).ids.length,
    async embed(texts, embedOptions = {}) {
      const encoded = texts.map((text) => encode(tokenizer, prefix + text, max));
      // Sorted by length, a batch pads little: padding is wasted work.
      const order = encoded.map((_, index) => index);
      order.sort((a, b) => (encoded[a]?.length ?? 0) - (encoded[b]?.length ?? 0));
      const out = new Array<Float32Array>(texts.length);
      for (let start = 0; start < order.length;) {
        embedOptions.signal?.throwIfAborted();
        let end = start + 1;
        // Sorted ascending, the last text of a batch is its longest: it sets the padding.
        while (
          end < order.length &&
          end - start < batchSize &&
          (end - start + 1) * (encoded[order[end] ?? 0]?.length ?? 0) <= tokenBudget
        )
          end++;
        const indexes = order.slice(start, end);
        start = end;
        const vectors = await run(indexes.map((index) => encoded[index] ?? []));
        indexes.forEach((index, k) => {
          const vector = vectors[k];
          if (vector) out[index] = vector;
        });
      }
      return out;
    },
    async close() {
      await session.release();
    },
  };
}

async function runBatch(
  session: InferenceSession,
  spec: LocalModelSpec,
  batch: number[][],
): Promise<Float32Array[]> {
  const n = batch.length;
  const length = Math.max(...batch.map((ids) => ids.length));
  const ids = new BigInt64Array(n * length);
  const mask = new BigInt64Array(n * length);
  batch.forEach((row, i) => {
    row.forEach((id, j) => {
      ids[i * length + j] = BigInt(id);
      mask[i * length + j] = 1n;
    });
  });
  const feeds: Record<string, Tensor> = {
    input_ids: new Tensor('int64', ids, [n, length]),
    attention_mask: new Tensor('int64', mask, [n, length]),
  };
  if (session.inputNames.includes('token_type_ids'))
    feeds.token_type_ids = new Tensor('int64', new BigInt64Array(n * length), [n, length]);
  const outputs = await session.run(feeds);
  const name = session.outputNames[0] ?? '';
  const output = outputs[name];
  if (!output || !(output.data instanceof Float32Array))
    throw new Error(`${join(spec.folder, 'model.onnx')} gave no float output "${name}"`);
  return pool(output.data, output.dims, batch, spec.pooling);
}

/** Mean (over the real tokens) or first-token pooling, then unit length. */
function pool(
  data: Float32Array,
  dims: readonly number[],
  batch: number[][],
  pooling: 'mean' | 'cls',
): Float32Array[] {
  const hidden = dims.at(-1) ?? 0;
  if (dims.length === 2)
    return batch.map((_, i) => normalize(data.slice(i * hidden, (i + 1) * hidden)));
  const length = dims[1] ?? 0;
  return batch.map((row, i) => {
    const vector = new Float32Array(hidden);
    const count = pooling === 'cls' ? 1 : row.length;
    for (let t = 0; t < count; t++) {
      const base = (i * length + t) * hidden;
      for (let h = 0; h < hidden; h++) vector[h] = (vector[h] ?? 0) + (data[base + h] ?? 0);
    }
    for (let h = 0; h < hidden; h++) vector[h] = (vector[h] ?? 0) / count;
    return normalize(vector);
  });
}
