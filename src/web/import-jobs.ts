import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { UPLOAD_PACE, UploadError, uploadLimiter, type UploadPace } from './upload-limiter.js';
import { makeTempFolder, removeTempFolder } from '../api/folder.js';
import type { DataFolder, ImportProgress, ImportResult } from '../index.js';

/** An import started from the browser. */
export interface ImportJob {
  id: string;
  file: string;
  state: 'running' | 'done' | 'failed';
  progress?: ImportProgress;
  report?: ImportResult;
  error?: string;
}

export { UploadError } from './upload-limiter.js';

/** The most often a job's watchers hear of its progress (its end they hear at once). */
const PROGRESS_EVERY_MS = 250;

/**
 * Imports uploaded export files one at a time, through the same importer as the CLI (same
 * detection, same checks, same report). An upload is streamed to a private temporary folder,
 * cut off past the size limit, and removed once imported.
 */
export class ImportJobs {
  private readonly jobs = new Map<string, ImportJob>();
  private readonly watchers = new Map<string, Set<(job: ImportJob) => void>>();
  private running: ImportJob | undefined;

  constructor(
    private readonly options: {
      folder: DataFolder;
      maxUploadBytes: number;
      /** How fast an upload must come and how long it may take ({@link UPLOAD_PACE} unless given). */
      uploadPace?: UploadPace | undefined;
    },
  ) {}

  get(id: string): ImportJob | undefined {
    return this.jobs.get(id);
  }

  /**
   * Calls `listener` with the job now, then on each change of it (progress at most every
   * {@link PROGRESS_EVERY_MS}, and its end); returns how to stop, or undefined for no such job.
   */
  watch(id: string, listener: (job: ImportJob) => void): (() => void) | undefined {
    const job = this.jobs.get(id);
    if (!job) return undefined;
    const watchers = this.watchers.get(id) ?? new Set();
    this.watchers.set(id, watchers);
    watchers.add(listener);
    listener(job);
    return () => {
      watchers.delete(listener);
      if (watchers.size === 0) this.watchers.delete(id);
    };
  }

  private changed(job: ImportJob): void {
    for (const listener of [...(this.watchers.get(job.id) ?? [])]) listener(job);
  }

  /**
   * Receives an upload and starts its import; resolves once the file is saved. Conversations
   * deleted stay out unless `restore` (the folder's import keeps the rule for every shell).
   */
  async start(
    request: IncomingMessage,
    name: string,
    options: { restore?: boolean } = {},
  ): Promise<ImportJob> {
    if (this.running) throw new UploadError(409, 'an import is running already: wait for it');
    const file =
      basename(name)
        .replace(/[^\w.\- ]+/g, '_')
        .slice(0, 200) || 'export';
    const declared = Number(request.headers['content-length'] ?? NaN);
    const limit = this.options.maxUploadBytes;
    if (declared > limit) throw new UploadError(413, tooLarge(limit));
    const job: ImportJob = { id: randomUUID(), file, state: 'running' };
    this.running = job;
    // Removed when the server stops, and swept by the next after a kill -9.
    const dir = await makeTempFolder('upload');
    const path = join(dir, file);
    let received = 0;
    const limiter = uploadLimiter({
      limit,
      pace: this.options.uploadPace ?? UPLOAD_PACE,
      file,
      tooLarge: tooLarge(limit),
      onBytes: (bytes) => {
        received = bytes;
      },
    });
    // Piped rather than in the pipeline: a refused upload leaves the request open, so the
    // refusal can still be answered.
    request.on('error', (error) => limiter.destroy(error));
    request.on('close', () => {
      if (!request.complete) limiter.destroy(new Error('the client went away'));
    });
    request.pipe(limiter);
    try {
      await pipeline(limiter, createWriteStream(path, { mode: 0o600 }));
    } catch (error) {
      request.unpipe(limiter);
      this.running = undefined;
      await removeTempFolder(dir);
      if (error instanceof UploadError) throw error;
      throw new UploadError(400, `the upload of ${file} was cut off`);
    }
    if (received === 0) {
      this.running = undefined;
      await removeTempFolder(dir);
      throw new UploadError(400, `${file} is empty`);
    }
    this.jobs.set(job.id, job);
    void this.run(job, path, dir, options.restore === true);
    return job;
  }

  private async run(job: ImportJob, path: string, dir: string, restore: boolean): Promise<void> {
    let told = 0;
    try {
      job.report = await this.options.folder.import([path], {
        restore,
        onProgress: (progress) => {
          job.progress = progress;
          if (Date.now() - told < PROGRESS_EVERY_MS) return;
          told = Date.now();
          this.changed(job);
        },
      });
      job.state = 'done';
    } catch (error) {
      job.state = 'failed';
      // The message names the file as the person chose it, not its temporary path.
      job.error = error instanceof Error ? error.message.replaceAll(path, job.file) : String(error);
    } finally {
      this.running = undefined;
      // Told before the clean-up, so a failing removal cannot leave a watcher waiting.
      this.changed(job);
      await removeTempFolder(dir);
    }
  }
}

function tooLarge(limit: number): string {
  return `the file is larger than the upload limit of ${Math.round(limit / 1024 / 1024)} MB (chatgraph serve --max-upload, or import it with chatgraph import)`;
}
