/**
 * Every route of the web API, with the schemas of its request and its answer: the server
 * dispatches from this table (web-server.ts, api-handlers.ts), the API test walks it over a
 * real server, and the browser takes its types from the same schemas. zod alone is imported
 * here (see api-responses.ts).
 */
import type { z } from 'zod';
import * as request from './api-requests.js';
import { conversationList } from './api-list-responses.js';
import * as response from './api-responses.js';

/** One route: its method and path (`:id` stands for one path segment), and its schemas. */
export interface RouteSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** The status of a successful answer (200 unless given). */
  status?: number;
  query?: z.ZodTypeAny;
  /** A JSON body. */
  body?: z.ZodTypeAny;
  /** The JSON answer; null when the route sends something else (a file, an event stream). */
  response: z.ZodTypeAny | null;
  /** For an event stream: each event's data. */
  events?: z.ZodTypeAny;
}

export const API = {
  listConversations: {
    method: 'GET',
    path: '/api/conversations',
    query: request.conversationsQuery,
    response: conversationList,
  },
  conversation: {
    method: 'GET',
    path: '/api/conversations/:id',
    query: request.conversationPageQuery,
    response: response.conversationPage,
  },
  deleteConversation: {
    method: 'DELETE',
    path: '/api/conversations/:id',
    response: response.deleted,
  },
  changes: { method: 'GET', path: '/api/changes', response: response.changeCount },
  sources: { method: 'GET', path: '/api/sources', response: response.sourceList },
  search: {
    method: 'GET',
    path: '/api/search',
    query: request.searchQuery,
    response: response.searchResult,
  },
  searchConversations: {
    method: 'GET',
    path: '/api/search/conversations',
    query: request.searchQuery,
    response: response.conversationResult,
  },
  similar: {
    method: 'GET',
    path: '/api/similar/:id',
    query: request.similarQuery,
    response: response.similarHits,
  },
  graph: {
    method: 'GET',
    path: '/api/graph/:id',
    query: request.graphQuery,
    response: response.graphView,
  },
  overview: { method: 'GET', path: '/api/overview', response: response.stats },
  topics: { method: 'GET', path: '/api/topics', response: response.topicMap },
  usage: {
    method: 'GET',
    path: '/api/usage',
    query: request.usageQuery,
    response: response.usage,
  },
  cypher: {
    method: 'POST',
    path: '/api/cypher',
    body: request.cypherBody,
    response: response.cypherResult,
  },
  /** The export file is the body, its name in the X-File-Name header. */
  startImport: {
    method: 'POST',
    path: '/api/import',
    status: 202,
    query: request.importQuery,
    response: response.importJob,
  },
  importJob: { method: 'GET', path: '/api/import/:id', response: response.importJob },
  /** Server-sent events: the job now, then each change of it until it ends. */
  importEvents: {
    method: 'GET',
    path: '/api/import/:id/events',
    response: null,
    events: response.importJob,
  },
  listMemories: {
    method: 'GET',
    path: '/api/memories',
    query: request.memoriesQuery,
    response: response.memoryPage,
  },
  remember: {
    method: 'POST',
    path: '/api/memories',
    status: 201,
    body: request.rememberBody,
    response: response.remembered,
  },
  revise: {
    method: 'PUT',
    path: '/api/memories/:id',
    body: request.reviseBody,
    response: response.revised,
  },
  forget: { method: 'DELETE', path: '/api/memories/:id', response: response.forgotten },
  /** The conversation as one file to download: a Markdown note or an HTML page. */
  conversationExport: {
    method: 'GET',
    path: '/api/conversations/:id/export',
    query: request.conversationExportQuery,
    response: null,
  },
  /** The file itself (an image shown, anything else downloaded). */
  attachment: {
    method: 'GET',
    path: '/api/attachment/:id',
    query: request.attachmentQuery,
    response: null,
  },
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof API;

/** What a route's handler is given once its request has been parsed. */
export type QueryOf<R extends RouteSpec> = R['query'] extends z.ZodTypeAny
  ? z.output<R['query']>
  : undefined;
export type BodyOf<R extends RouteSpec> = R['body'] extends z.ZodTypeAny
  ? z.output<R['body']>
  : undefined;
/** What a route answers: its response schema's type (nothing for a route that sends its own). */
export type AnswerOf<R extends RouteSpec> = R['response'] extends z.ZodTypeAny
  ? z.input<R['response']>
  : undefined;

/** A route's answer by name, for the browser. */
export type Answer<N extends RouteName> = AnswerOf<(typeof API)[N]>;
