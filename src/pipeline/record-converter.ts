import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { convertRecord, type RecordResult, type RecordTask } from './convert-record.js';
import type { WorkerRequest } from './convert-worker.js';
import type { LibraryFile } from '../providers/provider.js';

/**
 * With `shareMain`, the main thread converts a record itself whenever every worker has this
 * many waiting: enough that the worker stays busy meanwhile (2 left it idle; 4 to 6 measured
 * alike).
 */
const BACKLOG = 5;

interface Pending {
  resolve: (result: RecordResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
}

/**
 * Converts records on worker threads, or inline when `workers` is 0 or the code runs from
 * TypeScript sources (as in tests), where no compiled worker script exists. The default is one
 * worker per core but one: the main thread splits records and writes files, a stage of its own
 * (measured on 2 cores, 1 GB: 1 worker 19.3 s and 273 MB peak, 2 workers 19.3 s and 326 MB,
 * inline 26.0 s and 187 MB).
 *
 * When nothing slower than the file writes follows conversion (a `convert`, with no store),
 * the main thread is idle most of the time, waiting on the worker: with `shareMain` it converts
 * records too while the worker has a backlog (200 MB export on 2 cores, output on tmpfs, medians
 * of 6 runs alternating: 3.60 s alone, 3.31 s shared). An import's main thread is busy with the
 * store: sharing made it slower (8.1 s against 8.9 s), so it does not share.
 */
export class RecordConverter {
  private readonly slots: Slot[] = [];
  private readonly assets = new Map<string, Map<string, string>>();
  private readonly library = new Map<string, Map<string, LibraryFile[]>>();
  private seq = 0;
  private failure: Error | undefined;
  private closing = false;

  constructor(
    workers?: number,
    private readonly shareMain = false,
  ) {
    const compiled = import.meta.url.endsWith('.js');
    const count = workers ?? (compiled ? Math.max(1, Math.min(4, availableParallelism() - 1)) : 0);
    if (count > 0 && !compiled)
      throw new Error('worker threads need the compiled build (npm run build)');
    for (let i = 0; i < count; i++) {
      const worker = new Worker(new URL('./convert-worker.js', import.meta.url));
      const slot: Slot = { worker, pending: new Map() };
      worker.on('message', (message: { seq: number; result?: RecordResult; error?: string }) => {
        const pending = slot.pending.get(message.seq);
        slot.pending.delete(message.seq);
        if (!pending) return;
        if (message.result) pending.resolve(message.result);
        else pending.reject(new Error(message.error ?? 'conversion worker failed'));
      });
      worker.on('error', (error) => {
        this.fail(error);
      });
      worker.on('exit', (code) => {
        if (code !== 0 && !this.closing)
          this.fail(new Error(`a conversion worker stopped (exit code ${code})`));
      });
      this.slots.push(slot);
    }
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const slot of this.slots) {
      for (const pending of slot.pending.values()) pending.reject(error);
      slot.pending.clear();
    }
  }

  /** Makes an asset table known to the converters under a key. */
  setAssets(key: string, table: Map<string, string>): void {
    this.assets.set(key, table);
    const request: WorkerRequest = { type: 'assets', key, pairs: [...table] };
    for (const slot of this.slots) slot.worker.postMessage(request);
  }

  /** Makes a source's library files (by message platform id) known to the converters. */
  setLibrary(key: string, byMessage: Map<string, LibraryFile[]>): void {
    this.library.set(key, byMessage);
    const request: WorkerRequest = { type: 'library', key, pairs: [...byMessage] };
    for (const slot of this.slots) slot.worker.postMessage(request);
  }

  /** Converts one record (results may arrive out of order; callers keep their own order). */
  submit(task: RecordTask): Promise<RecordResult> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.slots.length === 0) return this.inline(task);
    const slot = this.slots.reduce((best, s) => (s.pending.size < best.pending.size ? s : best));
    if (this.shareMain && slot.pending.size >= BACKLOG) return this.inline(task);
    const seq = this.seq++;
    // A copy the worker can own: the record's bytes may share memory with other records.
    const bytes = new Uint8Array(task.record.bytes);
    const request: WorkerRequest = {
      type: 'task',
      seq,
      task: { ...task, record: { ...task.record, bytes: bytes as Buffer } },
    };
    return new Promise((resolve, reject) => {
      slot.pending.set(seq, { resolve, reject });
      slot.worker.postMessage(request, [bytes.buffer]);
    });
  }

  private inline(task: RecordTask): Promise<RecordResult> {
    try {
      return Promise.resolve(
        convertRecord(task, this.assets.get(task.assetsKey), this.library.get(task.assetsKey)),
      );
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** How many workers run (0: inline). */
  get workers(): number {
    return this.slots.length;
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
    this.slots.length = 0;
  }
}
