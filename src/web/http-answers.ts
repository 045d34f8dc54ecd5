import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error.js';
import { IMPORT_MAP_HASH } from './static-files.js';

const MAX_JSON_BYTES = 1024 * 1024;

// Chat text is untrusted: the page runs only its own scripts and talks only to this server.
export const SECURITY_HEADERS = {
  'Content-Security-Policy': `default-src 'none'; script-src 'self' ${IMPORT_MAP_HASH}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

export const JSON_TYPE = 'application/json; charset=utf-8';

/** A whole answer, never cached. */
export function send(
  response: ServerResponse,
  status: number,
  body: string | Buffer,
  type: string,
  extra: Record<string, string> = {},
): void {
  response.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    ...extra,
  });
  response.end(body);
}

/** A 304: the browser's copy (the version its `If-None-Match` named) is the current one. */
export function sendNotModified(response: ServerResponse, extra: Record<string, string>): void {
  response.writeHead(304, { ...SECURITY_HEADERS, ...extra });
  response.end();
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(response, status, JSON.stringify(body), JSON_TYPE);
}

/** A request's JSON body (at most 1 MB). */
export async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BYTES) throw new ApiError(400, 'the request is too large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new ApiError(400, 'the request is not JSON');
  }
}
