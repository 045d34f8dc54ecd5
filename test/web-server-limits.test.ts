import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { DataFolder } from '../src/data-folder/data-folder.js';
import { startWebApp, type WebApp } from '../src/web/web-server.js';
import { FIXED_TIME, tempDir } from './support/convert-to-temp.js';
import { holdWriteLock } from './support/lock-holder.js';
import { startServe } from './support/serve-cli.js';
import { fixturesOf } from './support/shared.js';
import { raw } from './support/web-request.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

/** What a raw socket heard back: the status of the first answer and everything sent. */
interface Heard {
  status: number;
  text: string;
}

/**
 * Writes `head` on a raw socket (then each of `drip` every `everyMs`, while the socket is open)
 * and reads until the server closes it or `waitMs` passes.
 */
function rawSocket(
  port: number,
  head: string,
  options: { drip?: string[]; everyMs?: number; waitMs?: number } = {},
): Promise<Heard> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const done = (): void => {
      clearInterval(timer);
      clearTimeout(limit);
      socket.destroy();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), text });
    };
    const limit = setTimeout(done, options.waitMs ?? 10_000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while a drip is being written.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') done();
      else reject(error);
    });
    socket.write(head);
    const drip = [...(options.drip ?? [])];
    if (drip.length > 0)
      timer = setInterval(() => {
        const next = drip.shift();
        if (next === undefined) clearInterval(timer);
        else if (!socket.destroyed) socket.write(next);
      }, options.everyMs ?? 100);
  });
}

const get = (target: string, host: string, extra = ''): string =>
  `GET ${target} HTTP/1.1\r\nHost: ${host}\r\n${extra}Connection: close\r\n\r\n`;

let dataDir: string;
let served: { server: ChildProcess; base: string };
let servedPort: number;
let folder: DataFolder;
let guarded: WebApp;
let paced: WebApp;
const TOKEN = 'b'.repeat(32);

beforeAll(async () => {
  dataDir = join(tempDir(), 'data');
  await importExports(new Folder(dataDir), fixturesOf('chatgpt'), { importedAt: FIXED_TIME });
  served = await startServe(dataDir);
  servedPort = Number(new URL(served.base).port);
  folder = await DataFolder.open(dataDir);
  guarded = await startWebApp({ folder, port: 0, token: TOKEN });
  // Small figures, so a drip is caught in seconds: the mechanism is the server's own.
  paced = await startWebApp({
    folder,
    port: 0,
    uploadIdleSeconds: 5,
    uploadRateWindowSeconds: 1,
    uploadMinBytesPerSecond: 200,
    uploadDeadlineSeconds: 3,
  });
}, 120_000);

afterAll(
  cleanUp(async () => {
    served.server.kill();
    await guarded.close();
    await paced.close();
    await folder.close();
  }),
);

describe('request targets that are not addresses', () => {
  const targets = [
    'http://[',
    '//[::1',
    'http://127.0.0.1:99999/api/overview',
    '//[::1/api/search?q=a',
  ];

  it.each(targets)('serve answers 400 to GET %s (loopback)', async (target) => {
    const heard = await rawSocket(servedPort, get(target, `127.0.0.1:${servedPort}`));
    expect(heard.status).toBe(400);
    expect(heard.text).toContain('not a valid address');
  });

  it.each(targets)('a token server answers 400 to GET %s', async (target) => {
    const host = `127.0.0.1:${guarded.port}`;
    const heard = await rawSocket(
      guarded.port,
      get(target, host, `Authorization: Bearer ${TOKEN}\r\n`),
    );
    expect(heard.status).toBe(400);
    // Without the token as well: nothing about the server is said beyond the 400.
    expect((await rawSocket(guarded.port, get(target, host))).status).toBe(400);
  });

  it('serve still answers a good request after them', async () => {
    const heard = await rawSocket(servedPort, get('/api/overview', `127.0.0.1:${servedPort}`));
    expect(heard.status).toBe(200);
  });
});

describe('query strings and numbers the API refuses', () => {
  const app = (): { port: number } => ({ port: servedPort });

  it('refuses a malformed % escape in /api/search as the other routes do', async () => {
    const search = await raw(app(), '/api/search?q=%zz');
    expect(search.status).toBe(400);
    expect(search.body).toContain('malformed % escape');
    expect((await raw(app(), '/api/conversations?title=%E0%A4%A')).status).toBe(400);
    expect((await raw(app(), '/api/search?q=bread%20starter')).status).toBe(200);
  });

  it.each([
    '/api/similar/x?limit=-1',
    '/api/similar/x?limit=0',
    '/api/search?q=bread&limit=-5',
    '/api/search?q=bread&offset=-1',
    '/api/conversations?limit=-1',
    '/api/conversations?offset=-3',
    '/api/conversations?limit=0',
    '/api/conversations/x?offset=-1',
    '/api/memories?limit=-1',
  ])('refuses %s with a 400 naming the parameter', async (path) => {
    const answer = await raw(app(), path);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatch(/(limit|offset) must be a whole number/);
  });
});

describe('a slow-drip upload', () => {
  const upload = (length: number): string =>
    `POST /api/import HTTP/1.1\r\nHost: 127.0.0.1:${paced.port}\r\nX-File-Name: conversations.json\r\nContent-Length: ${length}\r\n\r\n`;

  it('is stopped under the minimum rate with a clear error, and frees the import slot', async () => {
    // One byte every 300 ms: never idle, far under 200 bytes/s.
    const heard = await rawSocket(paced.port, `${upload(100_000)}[`, {
      drip: Array.from({ length: 40 }, () => ' '),
      everyMs: 300,
    });
    expect(heard.status).toBe(408);
    expect(heard.text).toMatch(
      /came at \d+ bytes\/s over 1 s, under the least the server takes \(200 bytes\/s\)/,
    );
    const next = await raw(paced, '/api/import', {
      method: 'POST',
      headers: { 'X-File-Name': 'notes.txt' },
      body: 'not an export',
    });
    expect(next.status).toBe(202);
    // Its import (refused for what it is) ends before the next upload asks for the slot.
    const { id } = JSON.parse(next.body) as { id: string };
    for (let i = 0; i < 100; i++) {
      const job = JSON.parse((await raw(paced, `/api/import/${id}`)).body) as { state: string };
      if (job.state !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('is stopped at the deadline however fast it comes, and frees the import slot', async () => {
    // 1 KB every 100 ms (10 KB/s, well above the rate), never finished: the deadline stops it.
    const heard = await rawSocket(paced.port, `${upload(100_000_000)}[`, {
      drip: Array.from({ length: 100 }, () => ' '.repeat(1024)),
      everyMs: 100,
    });
    expect(heard.status).toBe(408);
    expect(heard.text).toContain(
      'it took longer than 3 s: the upload of conversations.json was stopped',
    );
    const next = await raw(paced, '/api/import', {
      method: 'POST',
      headers: { 'X-File-Name': 'notes.txt' },
      body: 'not an export',
    });
    expect(next.status).toBe(202);
  });
});

describe('a memory written while another writer holds the data folder', () => {
  const rememberThat = (content: string) =>
    raw(paced, '/api/memories', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ content, type: 'fact' }),
    });

  it('is answered 503 with Retry-After while the writer still holds it, and taken once it is done', async () => {
    const holder = await holdWriteLock(dataDir);
    const busy = await rememberThat('Keeps the starter in the fridge');
    // Answered without waiting for the lock: its holder has not let go of it yet.
    expect(holder.exitCode).toBeNull();
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.body).toMatch(/another chatgraph writer \(pid \d+\) is changing the data folder/);
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    const taken = await rememberThat('Keeps the starter in the fridge');
    expect(taken.status).toBe(201);
  }, 30_000);
});
