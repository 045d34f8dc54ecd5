import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ModelNotInstalledError } from './embed-errors.js';
import { GrowingRunner, poolAvailable } from './embed-pool.js';
import type { Embedder, ModelInfo } from './embedder.js';
import { loadTokenizer, type TextTokenizer } from './load-tokenizer.js';
import { openSessionRunner, type BatchRunner, type Pooling } from './onnx-session.js';

/** A model folder ready to load: `model.onnx`, `tokenizer.json`, and how to pool. */
export interface LocalModelSpec {
  folder: string;
  info: ModelInfo;
  pooling: Pooling;
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
  /**
   * Sessions, each on a worker thread of its own (default: `CHATGRAPH_EMBED_WORKERS`, else one a
   * core); 1 runs the one session in this thread, as before the pool.
   */
  workers?: number;
  /** Batches handed to a worker ahead at most (default: embed-pool.ts's DEFAULT_AHEAD; for the bench). */
  ahead?: number;
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

/** Environment variable naming the number of embedding workers (see {@link LocalRunOptions}). */
export const WORKERS_ENV = 'CHATGRAPH_EMBED_WORKERS';

/**
 * The number of embedding sessions: the option, else `CHATGRAPH_EMBED_WORKERS`, else one a core
 * (from TypeScript sources, as in tests, one: the worker script exists only compiled).
 */
export function embedWorkers(option?: number): number {
  const env = process.env[WORKERS_ENV];
  if (option === undefined && env !== undefined && env !== '') {
    const parsed = z.coerce.number().int().positive().safeParse(env);
    if (!parsed.success)
      throw new Error(`${WORKERS_ENV} must be a whole number of workers, 1 or more (not "${env}")`);
    return parsed.data;
  }
  return Math.max(1, option ?? (poolAvailable ? availableParallelism() : 1));
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
  const session = { folder: spec.folder, pooling: spec.pooling, threads: options.threads ?? 1 };
  const workers = embedWorkers(options.workers);
  if (workers > 1 && !poolAvailable)
    throw new Error('embedding workers need the compiled build (npm run build)');
  // The session in this thread first: one worker is today's embedder, and a pool starts only
  // when a call has work for it (embed-pool.ts).
  const runners = new GrowingRunner(
    await openSessionRunner(session),
    session,
    workers,
    options.ahead,
  );
  const batchSize = Math.max(1, options.batchSize ?? DEFAULT_BATCH);
  const tokenBudget = options.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
  const max = spec.info.maxTokens;
  const prefix = spec.textPrefix ?? '';
  // One probe tells the real dimension: stated ones are checked, unstated ones learnt.
  const probe = await runners.runnerFor(1);
  const dimensions = (await probe.run([encode(tokenizer, 'dimension probe', max)]))[0]?.length ?? 0;
  if (spec.info.dimensions !== 0 && dimensions !== spec.info.dimensions) {
    await runners.close();
    throw new ModelNotInstalledError(
      `model ${spec.info.id} in ${spec.folder} gives ${dimensions}-dimensional vectors, not the ${spec.info.dimensions} its description says`,
    );
  }
  return {
    model: { ...spec.info, dimensions },
    workers,
    countTokens: (text) => tokenizer.encode(prefix + text).ids.length,
    async embed(texts, embedOptions = {}) {
      const encoded = texts.map((text) => encode(tokenizer, prefix + text, max));
      const out = new Array<Float32Array>(texts.length);
      const batches = batchesOf(encoded, batchSize, tokenBudget);
      await runAll(
        await runners.runnerFor(batches.length),
        batches,
        encoded,
        embedOptions.signal,
        (indexes, vectors) => {
          indexes.forEach((index, k) => {
            const vector = vectors[k];
            if (vector) out[index] = vector;
          });
        },
      );
      return out;
    },
    close: () => runners.close(),
  };
}

/**
 * The texts' indexes in ONNX runs: sorted by length, so a batch pads little (padding is wasted
 * work), at most `batchSize` texts and `tokenBudget` padded tokens a run. The pool runs the very
 * same batches as one session, so its vectors are the same.
 */
function batchesOf(encoded: number[][], batchSize: number, tokenBudget: number): number[][] {
  const order = encoded.map((_, index) => index);
  order.sort((a, b) => (encoded[a]?.length ?? 0) - (encoded[b]?.length ?? 0));
  const batches: number[][] = [];
  for (let start = 0; start < order.length;) {
    let end = start + 1;
    // Sorted ascending, the last text of a batch is its longest: it sets the padding.
    while (
      end < order.length &&
      end - start < batchSize &&
      (end - start + 1) * (encoded[order[end] ?? 0]?.length ?? 0) <= tokenBudget
    )
      end++;
    batches.push(order.slice(start, end));
    start = end;
  }
  return batches;
}

/**
 * Runs the batches, as many at once as the runner takes (its sessions, each handed the next
 * batch ahead), checking the signal before each; on a stop or a failure it waits for the batches
 * under way, so no work outlives the call.
 */
async function runAll(
  runner: BatchRunner,
  batches: number[][],
  encoded: number[][],
  signal: AbortSignal | undefined,
  place: (indexes: number[], vectors: Float32Array[]) => void,
): Promise<void> {
  const running = new Set<Promise<void>>();
  try {
    for (const indexes of batches) {
      while (running.size >= runner.capacity) await Promise.race(running);
      signal?.throwIfAborted();
      const task = runner
        .run(indexes.map((index) => encoded[index] ?? []))
        .then((vectors) => {
          place(indexes, vectors);
        })
        .finally(() => running.delete(task));
      // Awaited below (race, all or allSettled); this keeps a failure meanwhile from counting
      // as unhandled.
      task.catch(() => undefined);
      running.add(task);
    }
    await Promise.all(running);
  } finally {
    await Promise.allSettled(running);
  }
}
