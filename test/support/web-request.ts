import { request as httpRequest } from 'node:http';

/** What a request to the web app answered. */
export interface RawAnswer {
  status: number;
  body: string;
  headers: Record<string, unknown>;
}

/**
 * A raw HTTP request to a local web app (fetch cannot set Host): its status, body and headers.
 * The body is written as given; `end: false` leaves the request open (a stalled client).
 */
export function raw(
  app: { port: number },
  path: string,
  options: {
    method?: string;
    headers?: Record<string, string>;
    body?: Buffer | string;
    end?: boolean;
  } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: app.port,
        path,
        method: options.method ?? 'GET',
        headers: { Host: `127.0.0.1:${app.port}`, ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
          });
        });
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    if (options.end !== false) req.end();
  });
}

/**
 * The data of every server-sent event of a stream, read until the server ends it (an import's
 * events end with the import): the wait is on the server's own last event, never a timer.
 */
export async function serverEvents(app: { port: number }, path: string): Promise<unknown[]> {
  const answer = await raw(app, path, { headers: { Accept: 'text/event-stream' } });
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.body}`);
  if (!String(answer.headers['content-type']).startsWith('text/event-stream'))
    throw new Error(`${path} is not an event stream`);
  return answer.body
    .split('\n\n')
    .filter((event) => event.trim() !== '')
    .map((event) => {
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      return JSON.parse(data) as unknown;
    });
}
