import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { DataFolder } from '../index.js';
import type { PriceTable, QueryLimits, Recaller } from '../api/query.js';
import { sweepTempFolders } from '../api/folder.js';
import { ApiError, errorAnswer } from './api-error.js';
import { apiHandlers, type Handlers } from './api-handlers.js';
import { serveApi } from './api-router.js';
import { ConversationPages } from './conversation-pages.js';
import { JSON_TYPE, send, sendJson, sendNotModified } from './http-answers.js';
import { ImportJobs, UploadError } from './import-jobs.js';
import { UPLOAD_PACE } from './upload-limiter.js';
import { TOKEN_COOKIE, isLoopback, makeGuard, tokenOf } from './request-guard.js';
import { indexHtml, staticFile } from './static-files.js';

/** How the web app is served. */
export interface WebOptions {
  /** The data folder served: its store read, its verbs (import, delete, memories) called. */
  folder: DataFolder;
  /** 127.0.0.1 unless given; any other address requires the token. */
  host?: string;
  /** 0: any free port. */
  port?: number;
  /** The token to require (made up when the host is not loopback and none is given). */
  token?: string | undefined;
  /** The largest upload, in bytes (default 2 GB). */
  maxUploadBytes?: number;
  /** Search in every mode (made from the store and data folder when not given). */
  recaller?: Recaller;
  /** The limits of a Cypher query (10 s and 512 MB unless given). */
  queryLimits?: QueryLimits;
  /** How long an upload may send nothing before it is stopped, in seconds (default 30). */
  uploadIdleSeconds?: number;
  /** How long a whole upload may take, in seconds (default 3600). */
  uploadDeadlineSeconds?: number;
  /** The slowest an upload may come, in bytes a second over each rate window (default 16 KB/s). */
  uploadMinBytesPerSecond?: number;
  /** The window the upload rate is measured over, in seconds (default 30). */
  uploadRateWindowSeconds?: number;
  /**
   * A count that grows when the store changes behind the app (`serve --watch`): the page polls
   * it and redraws the list or the open conversation. Without it the page does not poll.
   */
  changes?: (() => number) | undefined;
  /** The prices the Usage page costs calls with (the shipped table unless given). */
  prices?: PriceTable | undefined;
}

/** A running web app. */
export interface WebApp {
  /** The address to open (with the token, when one is required). */
  url: string;
  host: string;
  port: number;
  token: string | undefined;
  close(): Promise<void>;
}

/** What the routes answer from: made once when the app starts. */
interface Routes {
  handlers: Handlers;
  token: string | undefined;
}

/** The page itself, its scripts and the favicon; false when the path is not one of them. */
function servePage(
  routes: Routes,
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
): boolean {
  const path = url.pathname;
  const method = request.method ?? 'GET';
  if (method === 'GET' && path === '/') {
    // Opening the printed address: the token becomes a cookie, and leaves the address bar.
    if (routes.token !== undefined && url.searchParams.has('token')) {
      send(response, 303, '', 'text/plain', {
        Location: '/',
        'Set-Cookie': `${TOKEN_COOKIE}=${encodeURIComponent(tokenOf(request) ?? '')}; HttpOnly; SameSite=Strict; Path=/`,
      });
      return true;
    }
    send(response, 200, indexHtml(), 'text/html; charset=utf-8');
    return true;
  }
  if (path === '/favicon.ico') {
    send(response, 204, '', 'text/plain');
    return true;
  }
  if (method === 'GET' && (path.startsWith('/app/') || path.startsWith('/vendor/'))) {
    const file = staticFile(path);
    // `no-cache`: the browser asks each time, and a file it already has is a 304 with no body.
    const headers = { 'Cache-Control': 'no-cache', ETag: file?.etag ?? '' };
    if (!file) send(response, 404, 'not found\n', 'text/plain; charset=utf-8');
    else if (request.headers['if-none-match'] === file.etag) sendNotModified(response, headers);
    else send(response, 200, file.body, file.type, headers);
    return true;
  }
  return false;
}

/**
 * A request's target as a URL: undefined when it is none (`http://[`, `//[::1`, a port past
 * 65535), which `new URL` throws on.
 */
function targetOf(request: IncomingMessage): URL | undefined {
  try {
    return new URL(request.url ?? '/', 'http://localhost');
  } catch {
    return undefined;
  }
}

/** Every request: the guard first, then the page, then the API; anything else is not found. */
async function route(
  routes: Routes,
  guard: ReturnType<typeof makeGuard>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = targetOf(request);
  if (!url) {
    request.resume();
    send(
      response,
      400,
      'the request target is not a valid address\n',
      'text/plain; charset=utf-8',
      {
        Connection: 'close',
      },
    );
    return;
  }
  const refusal = guard(request);
  if (refusal) {
    request.resume();
    send(response, refusal.status, `${refusal.message}\n`, 'text/plain; charset=utf-8');
    return;
  }
  // URLSearchParams keeps a malformed escape as it is; a path segment's is refused (URIError).
  if (/%(?![0-9A-Fa-f]{2})/.test(url.search))
    throw new ApiError(400, 'the request has a malformed % escape');
  if (servePage(routes, request, response, url)) return;
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'api') {
    send(response, 404, 'not found\n', 'text/plain; charset=utf-8');
    return;
  }
  if (await serveApi(routes.handlers, request, response, parts, url.searchParams)) return;
  request.resume();
  send(response, 404, 'not found\n', 'text/plain; charset=utf-8');
}

/** A failed request: an answer when one can still be sent, the stack on stderr when unexpected. */
function answerFailure(request: IncomingMessage, response: ServerResponse, error: unknown): void {
  const answer = errorAnswer(error);
  if (response.headersSent) {
    response.destroy();
  } else if (error instanceof UploadError) {
    // The rest of a refused upload is not read: the connection ends with the answer.
    request.resume();
    send(response, error.status, JSON.stringify({ error: error.message }), JSON_TYPE, {
      Connection: 'close',
    });
  } else if (answer) {
    send(response, answer.status, JSON.stringify(answer.body), JSON_TYPE, answer.headers);
  } else {
    process.stderr.write(
      `chatgraph serve: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    sendJson(response, 500, {
      error: error instanceof Error ? error.message : 'the server failed',
    });
  }
}

/**
 * Starts the web app: the page, its API over the store, and imports by upload. Every request
 * passes the guard first (Host, Origin, and the token when one is required).
 */
export async function startWebApp(options: WebOptions): Promise<WebApp> {
  const host = options.host ?? '127.0.0.1';
  const token =
    options.token ?? (isLoopback(host) ? undefined : randomBytes(24).toString('base64url'));
  const { folder } = options;
  // Uploads a server killed outright left behind (see makeTempFolder).
  sweepTempFolders();
  const store = await folder.reader();
  const recaller = options.recaller ?? (await folder.recaller());
  const jobs = new ImportJobs({
    folder,
    maxUploadBytes: options.maxUploadBytes ?? 2 * 1024 * 1024 * 1024,
    uploadPace: {
      idleMs: (options.uploadIdleSeconds ?? UPLOAD_PACE.idleMs / 1000) * 1000,
      deadlineMs: (options.uploadDeadlineSeconds ?? UPLOAD_PACE.deadlineMs / 1000) * 1000,
      minBytesPerSecond: options.uploadMinBytesPerSecond ?? UPLOAD_PACE.minBytesPerSecond,
      rateWindowMs: (options.uploadRateWindowSeconds ?? UPLOAD_PACE.rateWindowMs / 1000) * 1000,
    },
  });
  const pages = new ConversationPages(folder);
  const handlers = apiHandlers({
    store,
    folder,
    recaller,
    jobs,
    pages,
    queryLimits: options.queryLimits,
    changes: options.changes,
    prices: options.prices,
  });
  const routes: Routes = { handlers, token };
  // The guard needs the port, known only once listening: until then every request is refused.
  let guard: ReturnType<typeof makeGuard> = () => ({ status: 403, message: 'starting' });

  const server = createServer((request, response) => {
    route(routes, guard, request, response).catch((error: unknown) => {
      answerFailure(request, response, error);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  guard = makeGuard({ host, port, token });
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/${token !== undefined ? `?token=${token}` : ''}`,
    host,
    port,
    token,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      });
      if (!options.recaller) await recaller.close();
    },
  };
}
