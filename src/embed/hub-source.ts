import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SourceUnreachableError } from './embed-errors.js';
import { downloadTo, httpProblem } from './http-download.js';
import type { HubSource } from './model-catalog.js';

/** The model hub. */
export const HUB_URL = 'https://huggingface.co';

/**
 * The checksum the hub reports for a file, from a HEAD without following the redirect: LFS files
 * carry their sha256 in `x-linked-etag`; small files an ETag that is their git blob sha1.
 */
async function reportedChecksum(
  url: string,
  signal: AbortSignal,
): Promise<{ kind: 'sha256' | 'git-sha1'; value: string }> {
  const response = await fetch(url, { method: 'HEAD', redirect: 'manual', signal }).catch(
    (error: unknown) => {
      throw new SourceUnreachableError(httpProblem(url, error));
    },
  );
  if (response.status >= 400) throw new Error(httpProblem(url, response));
  const clean = (value: string | null): string =>
    (value ?? '').replace(/^W\//, '').replace(/"/g, '').toLowerCase();
  const linked = clean(response.headers.get('x-linked-etag'));
  if (/^[0-9a-f]{64}$/.test(linked)) return { kind: 'sha256', value: linked };
  const etag = clean(response.headers.get('etag'));
  if (/^[0-9a-f]{64}$/.test(etag)) return { kind: 'sha256', value: etag };
  if (/^[0-9a-f]{40}$/.test(etag)) return { kind: 'git-sha1', value: etag };
  throw new Error(`${url} reports no checksum (no x-linked-etag or ETag)`);
}

function gitBlobSha1(bytes: Buffer): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

/**
 * Fetches one file of a hub repository into `dest`, verified against the checksum the hub
 * reports (the hub cannot be pinned from here); returns the check it made.
 */
export async function fetchHubFile(
  hub: HubSource,
  path: string,
  dest: string,
  options: { hubUrl?: string; timeoutMs: number; signal: AbortSignal },
): Promise<string> {
  const url = `${options.hubUrl ?? HUB_URL}/${hub.repo}/resolve/main/${path}`;
  // A short timeout for the first answer: on machines without the hub we fall back quickly.
  const first = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  const expected = await reportedChecksum(url, first);
  const got = await downloadTo(url, dest, { signal: options.signal });
  const actual = expected.kind === 'sha256' ? got.sha256 : gitBlobSha1(await readFile(dest));
  if (actual !== expected.value)
    throw new Error(
      `checksum mismatch: ${url} has ${expected.kind} ${actual}, the hub reports ${expected.value}`,
    );
  return `${hub.repo}/${path} ${expected.kind} ${expected.value} (reported by the hub)`;
}
