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

/**
 * Passes an upload's bytes through, counting them: past `limit` bytes it fails with a 413, and
 * when no byte has come for `idleMs` with a 408 (a stalled client must not hold the one import
 * slot until Node's request timeout).
 */
export function uploadLimiter(options: {
  limit: number;
  idleMs: number;
  tooLarge: string;
  stalled: string;
  onBytes: (bytes: number) => void;
}): Transform {
  let received = 0;
  let timer: NodeJS.Timeout | undefined;
  const limiter: Transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      arm();
      received += chunk.length;
      options.onBytes(received);
      if (received > options.limit) done(new UploadError(413, options.tooLarge));
      else done(null, chunk);
    },
    flush(done) {
      clearTimeout(timer);
      done();
    },
    destroy(error, done) {
      clearTimeout(timer);
      done(error);
    },
  });
  const arm = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      limiter.destroy(new UploadError(408, options.stalled));
    }, options.idleMs);
  };
  arm();
  return limiter;
}
