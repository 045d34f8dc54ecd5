// One embedding worker of the pool (embed-pool.ts): its own ONNX session, fed batches of token
// ids by the main thread, which tokenizes, batches and keeps the order.
import { parentPort, workerData } from 'node:worker_threads';
import { z } from 'zod';
import { openSessionRunner, type BatchRunner } from './onnx-session.js';

/** What the main thread gives a worker when it starts it. */
export const workerDataSchema = z.object({
  folder: z.string(),
  pooling: z.enum(['mean', 'cls']),
  threads: z.number().int().positive(),
});

/** A batch to run: token ids a text, tagged so the answer finds its caller. */
export const batchRequestSchema = z.object({
  seq: z.number().int(),
  batch: z.array(z.array(z.number().int())),
});

/** What a worker says: ready (or not), and each batch's vectors or failure. */
export type WorkerReply =
  | { type: 'ready' }
  | { type: 'failed'; name: string; message: string }
  | { type: 'vectors'; seq: number; vectors: Float32Array[] }
  | { type: 'error'; seq: number; name: string; message: string };

function described(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}

async function serve(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('embed-worker.js runs as a worker thread of the embedding pool');
  const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []): void => {
    port.postMessage(message, transfer);
  };
  let runner: BatchRunner;
  try {
    runner = await openSessionRunner(workerDataSchema.parse(workerData));
  } catch (error) {
    reply({ type: 'failed', ...described(error) });
    return;
  }
  // Batches arrive one at a time per worker (the pool waits for each answer), so they run in turn.
  port.on('message', (message: unknown) => {
    const request = batchRequestSchema.parse(message);
    runner.run(request.batch).then(
      (vectors) => {
        // Each vector owns its buffer (onnx-session.ts): handed over, not copied.
        reply(
          { type: 'vectors', seq: request.seq, vectors },
          vectors.flatMap((v) => (v.buffer instanceof ArrayBuffer ? [v.buffer] : [])),
        );
      },
      (error: unknown) => {
        reply({ type: 'error', seq: request.seq, ...described(error) });
      },
    );
  });
  reply({ type: 'ready' });
}

await serve();
