import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { DataFolder } from '../index.js';
import { createServer, type McpOptions } from './create-server.js';

/** A running MCP HTTP endpoint. */
export interface HttpEndpoint {
  url: string;
  close(): Promise<void>;
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/**
 * Serves MCP over streamable HTTP at `/mcp` on 127.0.0.1 (stateless: a server per request).
 * A request whose Host or Origin is not this server's own address is refused, so a web page
 * elsewhere cannot reach it through DNS rebinding.
 */
export async function serveMcpHttp(
  folder: DataFolder,
  port: number,
  host = '127.0.0.1',
  options: McpOptions = {},
): Promise<HttpEndpoint> {
  // One recaller for the endpoint's life, closed with it: a server per request each opening its
  // own would leave a model opened by every search by meaning.
  const made = options.recaller ? undefined : await folder.recaller();
  const shared: McpOptions = made ? { ...options, recaller: made } : options;
  let own: string[] = [];
  const http = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const hostHeader = req.headers.host ?? '';
    if (!own.includes(hostHeader)) {
      refuse(res, 403, `refused: Host "${hostHeader}" is not this server`);
      return;
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !own.some((h) => origin === `http://${h}`)) {
      refuse(res, 403, `refused: Origin "${origin}" is not this server`);
      return;
    }
    if ((req.url ?? '').split('?')[0] !== '/mcp') {
      refuse(res, 404, 'not found: the MCP endpoint is /mcp');
      return;
    }
    // Stateless: no stream to open with GET and no session to end with DELETE.
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      refuse(res, 405, `method not allowed: ${req.method ?? ''}; this stateless server takes POST`);
      return;
    }
    // No session id generator: stateless, each request stands alone.
    const transport = new StreamableHTTPServerTransport({ enableJsonResponse: true });
    const server = createServer(folder, shared);
    res.on('close', () => {
      void transport.close();
      void server.then((s) => s.close()).catch(() => undefined);
    });
    server
      .then((s) => s.connect(transport))
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        if (!res.headersSent)
          refuse(res, 500, error instanceof Error ? error.message : String(error));
      });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => {
      resolve();
    });
  });
  const actual = (http.address() as AddressInfo).port;
  own = [`127.0.0.1:${actual}`, `localhost:${actual}`, `[::1]:${actual}`, `${host}:${actual}`];
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}/mcp`,
    close: async () => {
      await new Promise<void>((resolve) => {
        http.close(() => {
          resolve();
        });
        http.closeAllConnections();
      });
      await made?.close();
    },
  };
}
