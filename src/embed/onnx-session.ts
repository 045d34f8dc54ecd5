import { join } from 'node:path';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import { normalize } from './embedder.js';

/** How a session pools a model's token outputs into one vector a text. */
export type Pooling = 'mean' | 'cls';

/**
 * Runs batches of token ids through one model, a vector a row, unit length. Batches are run one
 * at a time per runner; `capacity` says how many the runner takes at once (its sessions).
 */
export interface BatchRunner {
  readonly capacity: number;
  run(batch: number[][]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** What a session needs to know of the model folder. */
export interface SessionSpec {
  folder: string;
  pooling: Pooling;
  /** Intra-op threads of the session. */
  threads: number;
}

/** One ONNX session in this thread: today's single-core embedder, and each pool worker's. */
export async function openSessionRunner(spec: SessionSpec): Promise<BatchRunner> {
  const session = await InferenceSession.create(join(spec.folder, 'model.onnx'), {
    intraOpNumThreads: spec.threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
  });
  return {
    capacity: 1,
    run: (batch) => runBatch(session, spec, batch),
    async close() {
      await session.release();
    },
  };
}

async function runBatch(
  session: InferenceSession,
  spec: SessionSpec,
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

/**
 * Mean (over the real tokens) or first-token pooling, then unit length. Each vector has a buffer
 * of its own, so a worker can hand it over without a copy.
 */
function pool(
  data: Float32Array,
  dims: readonly number[],
  batch: number[][],
  pooling: Pooling,
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
