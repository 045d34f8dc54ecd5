import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';

/** What a download wrote: its size and sha256. */
export interface Downloaded {
  size: number;
  sha256: string;
}

/** One line for a failed HTTP exchange: the URL and the status or the network error. */
export function httpProblem(url: string, problem: unknown): string {
  if (problem instanceof Response) return `${url} answered HTTP ${problem.status}`;
  const error = problem instanceof Error ? problem : new Error(String(problem));
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  if (error.name === 'TimeoutError') return `${url} did not answer in time`;
  return `${url}: ${error.message}${cause}`;
}

/** GETs `url` into `dest`, hashing as it goes; the file is removed when anything fails. */
export async function downloadTo(
  url: string,
  dest: string,
  options: { signal?: AbortSignal } = {},
): Promise<Downloaded> {
  const response = await fetch(url, options.signal ? { signal: options.signal } : {});
  if (!response.ok || !response.body) throw new Error(httpProblem(url, response));
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      tap,
      createWriteStream(dest),
    );
  } catch (error) {
    await rm(dest, { force: true });
    throw new Error(httpProblem(url, error), { cause: error });
  }
  return { size, sha256: hash.digest('hex') };
}

/** The bytes `[offset, offset + length)` of `url` through one HTTP Range request. */
export async function fetchRange(
  url: string,
  offset: number,
  length: number,
  signal?: AbortSignal,
): Promise<{ bytes: Buffer; total: number }> {
  const response = await fetch(url, {
    headers: { range: `bytes=${offset}-${offset + length - 1}` },
    ...(signal ? { signal } : {}),
  });
  if (response.status !== 206) throw new Error(`${url} does not serve byte ranges`);
  const total = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
  if (total === undefined) throw new Error(`${url} answered a range without its total size`);
  return { bytes: Buffer.from(await response.arrayBuffer()), total: Number(total) };
}
