import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { ModelNotInstalledError } from './embed-errors.js';
import type { WorkerReply } from './embed-worker.js';
import type { BatchRunner, SessionSpec } from './onnx-session.js';

const replySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('failed'), name: z.string(), message: z.string() }),
  z.object({
    type: z.literal('vectors'),
    seq: z.number().int(),
    vectors: z.array(z.instanceof(Float32Array)),
  }),
  z.object({
    type: z.literal('error'),
    seq: z.number().int(),
    name: z.string(),
    message: z.string(),
  }),
]) satisfies z.ZodType<WorkerReply>;

interface Job {
  seq: number;
  batch: number[][];
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  /** The batches handed to the worker, by seq: it runs them in turn (its session runs one). */
  jobs: Map<number, Job>;
}

/**
 * Batches handed to a worker at most: the one it runs and the next, so it goes on without
 * waiting for the main thread to be scheduled (on a busy machine, or while the main thread writes).
 */
export const DEFAULT_AHEAD = 2;

/** The worker's error as the single-session embedder would have thrown it. */
function rebuilt(name: string, message: string): Error {
  return name === 'ModelNotInstalledError'
    ? new ModelNotInstalledError(message)
    : Object.assign(new Error(message), name === 'Error' ? {} : { name });
}

/** True when this module runs compiled (dist/), where the worker script exists as JavaScript. */
export const poolAvailable = import.meta.url.endsWith('.js');

/**
 * Embedding workers (`node:worker_threads`), each with its own ONNX session, taking batches in
 * turn: one session runs on one core, so N workers embed on N cores. The main thread keeps the
 * tokenizer, the batching and the order; workers only run the model. Idle workers do not keep
 * the process alive (unref'd), so a pool left open never hangs an exiting process.
 */
export class EmbedPool implements BatchRunner {
  private readonly queue: Job[] = [];
  private seq = 0;
  private failure: Error | undefined;
  private closed = false;

  private constructor(
    private readonly slots: Slot[],
    private readonly ahead: number,
  ) {}

  /**
   * Starts `workers` workers and waits until each has loaded the model (or one failed);
   * `ahead`: batches handed to a worker at most ({@link DEFAULT_AHEAD}).
   */
  static async open(spec: SessionSpec, workers: number, ahead = DEFAULT_AHEAD): Promise<EmbedPool> {
    const slots = Array.from({ length: workers }, () => ({
      worker: new Worker(new URL('./embed-worker.js', import.meta.url), { workerData: spec }),
      jobs: new Map<number, Job>(),
    }));
    const pool = new EmbedPool(slots, Math.max(1, ahead));
    try {
      await Promise.all(slots.map((slot) => pool.started(slot)));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  get capacity(): number {
    return this.slots.length * this.ahead;
  }

  /** Resolves once the slot's worker has its session; rejects with its failure. */
  private started(slot: Slot): Promise<void> {
    return new Promise((resolve, reject) => {
      const early = (error: Error): void => {
        reject(error);
      };
      const exit = (code: number): void => {
        reject(
          new Error(`an embedding worker stopped while loading the model (exit code ${code})`),
        );
      };
      slot.worker.once('error', early);
      slot.worker.once('exit', exit);
      slot.worker.once('message', (message: unknown) => {
        slot.worker.off('error', early);
        slot.worker.off('exit', exit);
        const reply = replySchema.parse(message);
        if (reply.type === 'failed') {
          reject(rebuilt(reply.name, reply.message));
          return;
        }
        this.listen(slot);
        // Idle from now on: only a running batch keeps the process alive (see pump).
        slot.worker.unref();
        resolve();
      });
    });
  }

  private listen(slot: Slot): void {
    slot.worker.on('message', (message: unknown) => {
      const reply = replySchema.parse(message);
      if (reply.type !== 'vectors' && reply.type !== 'error') return;
      const job = slot.jobs.get(reply.seq);
      if (!job) return;
      slot.jobs.delete(reply.seq);
      if (slot.jobs.size === 0) slot.worker.unref();
      if (reply.type === 'vectors') job.resolve(reply.vectors);
      else job.reject(rebuilt(reply.name, reply.message));
      this.pump();
    });
    slot.worker.on('error', (error) => {
      this.fail(error);
    });
    slot.worker.on('exit', (code) => {
      if (!this.closed) this.fail(new Error(`an embedding worker stopped (exit code ${code})`));
    });
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const slot of this.slots) {
      for (const job of slot.jobs.values()) job.reject(this.failure);
      slot.jobs.clear();
    }
    for (const job of this.queue.splice(0)) job.reject(this.failure);
  }

  /** Runs one batch on the next free worker; vectors come back in the batch's order. */
  run(batch: number[][]): Promise<Float32Array[]> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.closed) return Promise.reject(new Error('the embedding pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ seq: this.seq++, batch, resolve, reject });
      this.pump();
    });
  }

  /** Hands queued batches to the workers with the fewest, up to `ahead` each. */
  private pump(): void {
    for (;;) {
      const slot = this.slots.reduce((best, s) => (s.jobs.size < best.jobs.size ? s : best));
      if (slot.jobs.size >= this.ahead) return;
      const job = this.queue.shift();
      if (!job) return;
      slot.jobs.set(job.seq, job);
      // A running batch keeps the process alive until its vectors are back.
      slot.worker.ref();
      slot.worker.postMessage({ seq: job.seq, batch: job.batch });
    }
  }

  /** Stops the workers (their sessions go with their threads); batches still queued fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.fail(new Error('the embedding pool is closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }
}

/**
 * One session in this thread until a call has batches for more than one: then the pool, started
 * once, and the thread's session let go when no batch runs on it. A query or a memory (one text,
 * one batch) never starts workers, which would load the model once more each for nothing
 * (measured: opening 2 workers took 1.2 s more than one session, and 270 MB).
 */
export class GrowingRunner {
  private single: BatchRunner | undefined;
  private singleRuns = 0;
  private pool: Promise<EmbedPool> | undefined;
  private closed = false;

  constructor(
    session: BatchRunner,
    private readonly spec: SessionSpec,
    readonly workers: number,
    private readonly ahead = DEFAULT_AHEAD,
  ) {
    this.single = session;
  }

  /** The runner for a call of `batches` batches. */
  async runnerFor(batches: number): Promise<BatchRunner> {
    if (this.closed) throw new Error('the embedder is closed');
    const single = this.single;
    if (!this.pool && (batches < 2 || this.workers < 2) && single) return this.counted(single);
    this.pool ??= EmbedPool.open(this.spec, this.workers, this.ahead);
    const pool = await this.pool;
    await this.releaseIdle();
    return pool;
  }

  /** The thread's session, counting its runs so it is released only when idle. */
  private counted(single: BatchRunner): BatchRunner {
    return {
      capacity: 1,
      run: async (batch) => {
        this.singleRuns++;
        try {
          return await single.run(batch);
        } finally {
          this.singleRuns--;
          if (this.pool || this.closed) await this.releaseIdle();
        }
      },
      close: () => Promise.resolve(),
    };
  }

  private async releaseIdle(): Promise<void> {
    const single = this.single;
    if (!single || this.singleRuns > 0) return;
    this.single = undefined;
    await single.close();
  }

  async close(): Promise<void> {
    this.closed = true;
    const pool = this.pool;
    this.pool = undefined;
    await Promise.all([
      this.releaseIdle(),
      pool?.then(
        (opened) => opened.close(),
        () => undefined,
      ),
    ]);
  }
}
