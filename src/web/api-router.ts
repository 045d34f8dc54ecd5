import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handlers } from './api-handlers.js';
import { API, type RouteName, type RouteSpec } from './api-schema.js';
import { readJson, sendJson } from './http-answers.js';
import { parseBody, parseQuery } from './parse-request.js';

/** The route a method and path name, and its `:id` segment. */
function match(
  method: string,
  parts: readonly string[],
): { name: RouteName; route: RouteSpec; id: string } | undefined {
  for (const [name, route] of Object.entries(API) as [RouteName, RouteSpec][]) {
    if (route.method !== method) continue;
    const pattern = route.path.split('/').filter(Boolean);
    if (pattern.length !== parts.length) continue;
    let id = '';
    const same = pattern.every((segment, i) => {
      if (segment !== ':id') return segment === parts[i];
      id = parts[i] ?? '';
      return true;
    });
    if (same) return { name, route, id };
  }
  return undefined;
}

/**
 * Answers an API request from the route table: its query string and JSON body parsed by the
 * route's schemas (a bad one is a 400 naming the parameter), its handler's answer sent as JSON
 * (a route that sends a file or events sends its own). False when no route matches.
 */
export async function serveApi(
  handlers: Handlers,
  request: IncomingMessage,
  response: ServerResponse,
  parts: readonly string[],
  params: URLSearchParams,
): Promise<boolean> {
  const found = match(request.method ?? 'GET', parts);
  if (!found) return false;
  const { name, route, id } = found;
  const query: unknown = route.query ? parseQuery(route.query, params) : undefined;
  const body: unknown = route.body ? parseBody(route.body, await readJson(request)) : undefined;
  // One handler of the table, called through the table's common shape: its input is what its own
  // route's schemas just produced (TypeScript cannot tie a name looked up at run time to its type).
  const handler = handlers[name] as unknown as (call: {
    id: string;
    query: unknown;
    body: unknown;
    request: IncomingMessage;
    response: ServerResponse;
  }) => Promise<unknown>;
  const answer = await handler({ id, query, body, request, response });
  if (route.response !== null) sendJson(response, route.status ?? 200, answer);
  return true;
}
