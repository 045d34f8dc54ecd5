import { randomBytes } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import {
  ATTACHMENTS_DIR,
  SERVER_QUERY_LIMITS,
  bundleDir,
  createRecaller,
  type Neo4jTarget,
  type QueryLimits,
  type Recaller,
  type Store,
} from '../index.js';
import * as api from './api-routes.js';
import { ConversationPages } from './conversation-pages.js';
import { deleteRoute } from './delete-route.js';
import * as memories from './memory-routes.js';
import { ImportJobs, UploadError } from './import-jobs.js';
import { TOKEN_COOKIE, isLoopback, makeGuard, tokenOf } from './request-guard.js';
import { IMPORT_MAP_HASH, indexHtml, staticFile } from './static-files.js';

/** How the web app is served. */
export interface WebOptions {
  store: Store;
  dataDir: string;
  neo4j?: Neo4jTarget | undefined;
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
  /**
   * A count that grows when the store changes behind the app (`serve --watch`): the page polls
   * it and redraws the list or the open conversation. Without it the page does not poll.
   */
  changes?: (() => number) | undefined;
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

const MAX_JSON_BYTES = 1024 * 1024;

// Chat text is untrusted: the page runs only its own scripts and talks only to this server.
const SECURITY_HEADERS = {
  'Content-Security-Policy': `default-src 'none'; script-src 'self' ${IMPORT_MAP_HASH}; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

function send(
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

const JSON_TYPE = 'application/json; charset=utf-8';

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  send(response, status, JSON.stringify(body), JSON_TYPE);
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_JSON_BYTES) throw new api.ApiError(400, 'the request is too large');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    throw new api.ApiError(400, 'the request is not JSON');
  }
}

/** What the routes answer from: made once when the app starts. */
interface Routes {
  options: WebOptions;
  store: Store;
  dataDir: string;
  recaller: Recaller;
  jobs: ImportJobs;
  pages: ConversationPages;
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
    if (file) send(response, 200, file.body, file.type, { 'Cache-Control': 'no-cache' });
    else send(response, 404, 'not found\n', 'text/plain; charset=utf-8');
    return true;
  }
  return false;
}

/** One API request, as the route sees it. */
interface ApiCall {
  request: IncomingMessage;
  response: ServerResponse;
  method: string;
  what: string | undefined;
  id: string | undefined;
  params: URLSearchParams;
}

/** Conversations, changes and memories: the routes that read or change stored chats. */
async function serveStored(routes: Routes, call: ApiCall): Promise<boolean> {
  const { store, dataDir, options, pages, recaller } = routes;
  const { request, response, method, what, id, params } = call;
  const context = { store, dataDir, neo4j: options.neo4j, recaller };
  if (method === 'GET' && what === 'conversations' && id === undefined) {
    sendJson(response, 200, await api.listConversations(store, params));
  } else if (method === 'GET' && what === 'conversations' && id !== undefined) {
    sendJson(response, 200, await pages.page(id, params));
  } else if (method === 'DELETE' && what === 'conversations' && id !== undefined) {
    sendJson(response, 200, await deleteRoute(dataDir, options.neo4j, id));
  } else if (method === 'GET' && what === 'changes') {
    sendJson(response, 200, { changes: options.changes?.() ?? null });
  } else if (what === 'memories' && (method === 'GET' || method === 'POST') && id === undefined) {
    if (method === 'GET') sendJson(response, 200, await memories.listRoute(context, params));
    else sendJson(response, 201, await memories.rememberRoute(context, await readJson(request)));
  } else if (what === 'memories' && (method === 'PUT' || method === 'DELETE') && id !== undefined) {
    if (method === 'PUT')
      sendJson(response, 200, await memories.reviseRoute(context, id, await readJson(request)));
    else sendJson(response, 200, await memories.forgetRoute(context, id));
  } else {
    return false;
  }
  return true;
}

/** Search, graph, Cypher, imports and attachments: the routes that query or add. */
async function serveQueries(routes: Routes, call: ApiCall): Promise<boolean> {
  const { store, dataDir, options, recaller, jobs } = routes;
  const { request, response, method, what, id, params } = call;
  if (method === 'GET' && what === 'sources') {
    sendJson(response, 200, await api.sources(store));
  } else if (method === 'GET' && what === 'search') {
    sendJson(response, 200, await api.search(recaller, params));
  } else if (method === 'GET' && what === 'similar' && id !== undefined) {
    sendJson(response, 200, await api.similar(recaller, id, params));
  } else if (method === 'GET' && what === 'graph' && id !== undefined) {
    sendJson(response, 200, await api.graph(store, id, params));
  } else if (method === 'GET' && what === 'overview') {
    sendJson(response, 200, await store.stats());
  } else if (method === 'POST' && what === 'cypher') {
    const limits = options.queryLimits ?? SERVER_QUERY_LIMITS;
    sendJson(response, 200, await api.cypher(store, await readJson(request), limits));
  } else if (method === 'POST' && what === 'import') {
    const name = request.headers['x-file-name'];
    if (typeof name !== 'string' || name === '') {
      request.resume();
      throw new api.ApiError(400, 'send the file name in the X-File-Name header');
    }
    const job = await jobs.start(request, decodeURIComponent(name));
    sendJson(response, 202, job);
  } else if (method === 'GET' && what === 'import' && id !== undefined) {
    const job = jobs.get(id);
    if (!job) throw new api.ApiError(404, `no import ${id}`);
    sendJson(response, 200, job);
  } else if (method === 'GET' && what === 'attachment' && id !== undefined) {
    sendAttachment(response, dataDir, params.get('ref') ?? '');
  } else {
    return false;
  }
  return true;
}

/** Every request: the guard first, then the page, then the API; anything else is not found. */
async function route(
  routes: Routes,
  guard: ReturnType<typeof makeGuard>,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const refusal = guard(request);
  if (refusal) {
    request.resume();
    send(response, refusal.status, `${refusal.message}\n`, 'text/plain; charset=utf-8');
    return;
  }
  if (servePage(routes, request, response, url)) return;
  const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
  if (parts[0] !== 'api') {
    send(response, 404, 'not found\n', 'text/plain; charset=utf-8');
    return;
  }
  const [, what, id] = parts;
  const method = request.method ?? 'GET';
  const call = { request, response, method, what, id, params: url.searchParams };
  if ((await serveStored(routes, call)) || (await serveQueries(routes, call))) return;
  request.resume();
  send(response, 404, 'not found\n', 'text/plain; charset=utf-8');
}

/** A failed request: an answer when one can still be sent, the stack on stderr when unexpected. */
function answerFailure(request: IncomingMessage, response: ServerResponse, error: unknown): void {
  const answer = api.errorAnswer(error);
  if (response.headersSent) {
    response.destroy();
  } else if (error instanceof UploadError) {
    // The rest of a refused upload is not read: the connection ends with the answer.
    request.resume();
    send(response, error.status, JSON.stringify({ error: error.message }), JSON_TYPE, {
      Connection: 'close',
    });
  } else if (answer) {
    sendJson(response, answer.status, answer.body);
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
  const { store, dataDir } = options;
  const recaller = options.recaller ?? createRecaller(store, dataDir);
  const jobs = new ImportJobs({
    dataDir,
    neo4j: options.neo4j,
    maxUploadBytes: options.maxUploadBytes ?? 2 * 1024 * 1024 * 1024,
    uploadIdleMs: (options.uploadIdleSeconds ?? 30) * 1000,
  });
  const pages = new ConversationPages(store, dataDir);
  const routes: Routes = { options, store, dataDir, recaller, jobs, pages, token };
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

// An attachment from the bundle: images shown, anything else downloaded, never rendered.
function sendAttachment(response: ServerResponse, dataDir: string, ref: string): void {
  const root = join(bundleDir(dataDir), ATTACHMENTS_DIR);
  const relative = ref.startsWith(`${ATTACHMENTS_DIR}/`)
    ? ref.slice(ATTACHMENTS_DIR.length + 1)
    : ref;
  const path = normalize(join(root, relative));
  if (!path.startsWith(root + sep) || !existsSync(path) || !statSync(path).isFile())
    throw new api.ApiError(404, 'no such attachment');
  const image = IMAGE_TYPES[extname(path).toLowerCase()];
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': image ?? 'application/octet-stream',
    'Content-Length': String(statSync(path).size),
    ...(image ? {} : { 'Content-Disposition': 'attachment' }),
    'Cache-Control': 'no-store',
  });
  createReadStream(path).pipe(response);
}
