import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import {
  SERVER_QUERY_LIMITS,
  SHIPPED_PRICES,
  usageReport,
  type PriceTable,
  type QueryLimits,
  type Recaller,
} from '../api/query.js';
import { renderConversation } from '../api/view.js';
import type { DataFolder, StoreReader } from '../index.js';
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
  store: StoreReader;
  folder: DataFolder;
  recaller: Recaller;
  jobs: ImportJobs;
  pages: ConversationPages;
  queryLimits: QueryLimits | undefined;
  changes: (() => number) | undefined;
  /** The prices the Usage page costs calls with (the shipped table unless given). */
  prices?: PriceTable | undefined;
}

/** Every route's handler, by the route's name in {@link API}. */
export function apiHandlers(context: ApiContext): Handlers {
  const { store, folder, recaller, jobs, pages } = context;
  const memoryContext = { store, folder, recaller };
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
    topics: () => folder.topics(),
    usage: ({ query }) =>
      usageReport(store.usage, {
        by: query.by,
        breakdown: query.breakdown,
        source: query.source,
        project: query.project,
        since: query.since,
        until: query.until,
        timeZone: query.tz,
        prices: context.prices ?? SHIPPED_PRICES,
        estimate: query.estimate,
      }),
    cypher: ({ body }) => api.cypher(store, body, context.queryLimits ?? SERVER_QUERY_LIMITS),
    startImport: async ({ request, query }) => {
      const name = request.headers['x-file-name'];
      if (typeof name !== 'string' || name === '') {
        request.resume();
        throw new ApiError(400, 'send the file name in the X-File-Name header');
      }
      return jobs.start(request, decodeURIComponent(name), { restore: query.restore });
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
    conversationExport: async ({ id, query, response }) => {
      await sendConversationFile(response, folder, id, query.format);
    },
    attachment: async ({ query, response }) => {
      await sendAttachment(response, folder, query.ref);
    },
  };
}

// A conversation as a download, rendered as `chatgraph export` renders it.
async function sendConversationFile(
  response: ServerResponse,
  folder: DataFolder,
  id: string,
  format: 'markdown' | 'html',
): Promise<void> {
  const view = await folder.view(id);
  if (!view) throw new ApiError(404, `no conversation ${id}`);
  // The download goes on without the bundle's copy (its branches) when that file cannot be read.
  const pam = await folder.pamConversation(view.conversation.id).catch(() => undefined);
  const file = renderConversation(view, pam, format);
  const body = Buffer.from(file.text, 'utf8');
  // An ASCII fallback name, and the real one encoded (RFC 6266).
  const ascii = file.fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': file.mimeType,
    'Content-Length': String(body.length),
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    'Cache-Control': 'no-store',
  });
  response.end(body);
}

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

// An attachment from the bundle: images shown, anything else downloaded, never rendered.
async function sendAttachment(
  response: ServerResponse,
  folder: DataFolder,
  ref: string,
): Promise<void> {
  const attachment = await folder.attachment(ref);
  if (attachment === undefined) throw new ApiError(404, 'no such attachment');
  const image = IMAGE_TYPES[extname(attachment.path).toLowerCase()];
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': image ?? 'application/octet-stream',
    'Content-Length': String(attachment.size),
    ...(image ? {} : { 'Content-Disposition': 'attachment' }),
    'Cache-Control': 'no-store',
  });
  attachment.read().pipe(response);
}
