import { existsSync, createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import {
  ATTACHMENTS_DIR,
  SERVER_QUERY_LIMITS,
  bundleDir,
  topicMapCache,
  type DataFolder,
  type QueryLimits,
  type Recaller,
  type Store,
} from '../index.js';
import { ApiError } from './api-error.js';
import * as api from './api-routes.js';
import type { API, AnswerOf, BodyOf, QueryOf, RouteName, RouteSpec } from './api-schema.js';
import type { ConversationPages } from './conversation-pages.js';
import { deleteRoute } from './delete-route.js';
import { SECURITY_HEADERS } from './http-answers.js';
import { streamImportEvents } from './import-events.js';
import type { ImportJobs } from './import-jobs.js';
import * as memories from './memory-routes.js';

/** One API request once its route's schemas have parsed it. */
export interface ParsedCall<R extends RouteSpec> {
  /** The `:id` segment of the path ('' for a route without one). */
  id: string;
  query: QueryOf<R>;
  body: BodyOf<R>;
  request: IncomingMessage;
  response: ServerResponse;
}

/** A route's handler: its answer is typed by the route's response schema. */
export type Handler<R extends RouteSpec> = (call: ParsedCall<R>) => Promise<AnswerOf<R>>;

export type Handlers = { [N in RouteName]: Handler<(typeof API)[N]> };

/** What the handlers answer from: made once when the app starts. */
export interface ApiContext {
  store: Store;
  folder: DataFolder;
  recaller: Recaller;
  jobs: ImportJobs;
  pages: ConversationPages;
  queryLimits: QueryLimits | undefined;
  changes: (() => number) | undefined;
}

/** Every route's handler, by the route's name in {@link API}. */
export function apiHandlers(context: ApiContext): Handlers {
  const { store, folder, recaller, jobs, pages } = context;
  const dataDir = folder.dir;
  const memoryContext = { store, folder, recaller };
  // Clustering is kept between requests until the vectors or the conversations change.
  const topics = topicMapCache(store);
  return {
    listConversations: ({ query }) => api.listConversations(store, query),
    conversation: ({ id, query }) => pages.page(id, query),
    deleteConversation: ({ id }) => deleteRoute(folder, id),
    changes: () => Promise.resolve({ changes: context.changes?.() ?? null }),
    sources: () => store.sources(),
    search: ({ query }) => api.search(recaller, query, context.queryLimits ?? SERVER_QUERY_LIMITS),
    searchConversations: ({ query }) =>
      api.searchConversations(recaller, query, context.queryLimits ?? SERVER_QUERY_LIMITS),
    similar: async ({ id, query }) => ({ hits: await recaller.similar(id, query.limit) }),
    graph: ({ id, query }) => api.graph(store, id, query),
    overview: () => store.stats(),
    topics: () => topics(),
    cypher: ({ body }) => api.cypher(store, body, context.queryLimits ?? SERVER_QUERY_LIMITS),
    startImport: async ({ request }) => {
      const name = request.headers['x-file-name'];
      if (typeof name !== 'string' || name === '') {
        request.resume();
        throw new ApiError(400, 'send the file name in the X-File-Name header');
      }
      return jobs.start(request, decodeURIComponent(name));
    },
    importJob: ({ id }) => {
      const job = jobs.get(id);
      if (!job) throw new ApiError(404, `no import ${id}`);
      return Promise.resolve(job);
    },
    importEvents: ({ id, response }) => {
      streamImportEvents(jobs, id, response);
      return Promise.resolve(undefined);
    },
    listMemories: ({ query }) => memories.listRoute(memoryContext, query),
    remember: ({ body }) => memories.rememberRoute(memoryContext, body),
    revise: ({ id, body }) => memories.reviseRoute(memoryContext, id, body),
    forget: ({ id }) => memories.forgetRoute(memoryContext, id),
    attachment: ({ query, response }) => {
      sendAttachment(response, dataDir, query.ref);
      return Promise.resolve(undefined);
    },
  };
}

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

// An attachment from the bundle: images shown, anything else downloaded, never rendered.
function sendAttachment(response: ServerResponse, dataDir: string, ref: string): void {
  const root = join(bundleDir(dataDir), ATTACHMENTS_DIR);
  const relative = ref.startsWith(`${ATTACHMENTS_DIR}/`)
    ? ref.slice(ATTACHMENTS_DIR.length + 1)
    : ref;
  const path = normalize(join(root, relative));
  if (!path.startsWith(root + sep) || !existsSync(path) || !statSync(path).isFile())
    throw new ApiError(404, 'no such attachment');
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
