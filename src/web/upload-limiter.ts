import { Transform } from 'node:stream';

/** An upload refused before it was imported. */
export class UploadError extends Error {
  constructor(
    readonly status: 400 | 408 | 409 | 413,
    message: string,
  ) {
    super(message);
  }
}

/** How fast an upload must come and how long it may take, in all. */
export interface UploadPace {
  /** No byte for this long stops it. */
  idleMs: number;
  /** The whole upload must arrive within this. */
  deadlineMs: number;
  /** At least this many bytes a second, over each {@link rateWindowMs} (a drip is stopped). */
  minBytesPerSecond: number;
  rateWindowMs: number;
}

/** The web app's pace unless told: 30 s idle, 60 minutes in all, 16 KB/s over each 30 s. */
export const UPLOAD_PACE: UploadPace = {
  idleMs: 30_000,
  deadlineMs: 60 * 60_000,
  minBytesPerSecond: 16 * 1024,
  rateWindowMs: 30_000,
};

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/**
 * Passes an upload's bytes through, counting them: past `limit` bytes it fails with a 413; with
 * a 408 when no byte has come for the idle time, when it comes slower than the minimum rate
 * over a window, or when it is not over by the deadline (a stalled or dripping client must not
 * hold the one import slot).
 */
export function uploadLimiter(options: {
  limit: number;
  pace: UploadPace;
  file: string;
  tooLarge: string;
  onBytes: (bytes: number) => void;
}): Transform {
  const { pace, file } = options;
  let received = 0;
  let windowStart = 0;
  let idle: NodeJS.Timeout | undefined;
  const stop = (message: string): void => {
    limiter.destroy(new UploadError(408, `${message}: the upload of ${file} was stopped`));
  };
  const deadline = setTimeout(() => {
    stop(`it took longer than ${seconds(pace.deadlineMs)}`);
  }, pace.deadlineMs);
  const rate = setInterval(() => {
    const perSecond = ((received - windowStart) * 1000) / pace.rateWindowMs;
    windowStart = received;
    if (perSecond < pace.minBytesPerSecond)
      stop(
        `it came at ${Math.floor(perSecond)} bytes/s over ${seconds(pace.rateWindowMs)}, under the least the server takes (${pace.minBytesPerSecond} bytes/s)`,
      );
  }, pace.rateWindowMs);
  const clear = (): void => {
    clearTimeout(idle);
    clearTimeout(deadline);
    clearInterval(rate);
  };
  const limiter: Transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      arm();
      received += chunk.length;
      options.onBytes(received);
      if (received > options.limit) done(new UploadError(413, options.tooLarge));
      else done(null, chunk);
    },
    flush(done) {
      clear();
      done();
    },
    destroy(error, done) {
      clear();
      done(error);
    },
  });
  const arm = (): void => {
    clearTimeout(idle);
    idle = setTimeout(() => {
      stop(`no data came for ${seconds(pace.idleMs)}`);
    }, pace.idleMs);
  };
  arm();
  return limiter;
}
