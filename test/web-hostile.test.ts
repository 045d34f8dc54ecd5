import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { DataFolder } from '../src/data-folder/data-folder.js';
import { startWebApp, type WebApp } from '../src/web/web-server.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { FIXED_TIME, tempDir } from './support/convert-to-temp.js';
import { fixturesOf } from './support/shared.js';
import { raw, type RawAnswer } from './support/web-request.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

const postJson = (app: WebApp, path: string, body: unknown): Promise<RawAnswer> =>
  raw(app, path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

let dataDir: string;
let folder: DataFolder;
let app: WebApp;
let guarded: WebApp;
let logged: string[];
const TOKEN = 'a'.repeat(32);

beforeAll(async () => {
  const dir = tempDir();
  dataDir = join(dir, 'data');
  const branched = join(dir, 'branched.json');
  writeFileSync(branched, JSON.stringify([branchedConversation('gpt-a', 'Alpha about sourdough')]));
  await importExports(new Folder(dataDir), [...fixturesOf('chatgpt'), branched], {
    importedAt: FIXED_TIME,
  });
  folder = await DataFolder.open(dataDir);
  app = await startWebApp({
    folder,
    port: 0,
    uploadIdleSeconds: 1,
    queryLimits: { timeoutSeconds: 6, memoryMb: 256 },
  });
  guarded = await startWebApp({ folder, port: 0, token: TOKEN });
  logged = [];
  // What the server logs: bad input must not reach it as an error with a stack.
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    logged.push(String(chunk));
    return true;
  });
});

afterAll(
  cleanUp(async () => {
    vi.restoreAllMocks();
    await app.close();
    await guarded.close();
    await folder.close();
  }),
);

describe('hostile requests to the web app', () => {
  it.each([
    ['a malformed % in the path', '/api/conversations/%E0%A4%A', {}],
    ['a malformed % in a static path', '/app/%E0%A4%A', {}],
    ['the app folder itself', '/app/', {}],
    ['a prototype name under /vendor/', '/vendor/__proto__', {}],
    ['a huge offset', '/api/conversations?offset=9223372036854775808', {}],
    ['a huge message offset', '/api/conversations/gpt-a?offset=9223372036854775808', {}],
    ['a malformed % in the file name', '/api/import', { 'X-File-Name': '%E0%A4%A' }],
  ])('answers %s with a 4xx and a plain sentence', async (_what, path, headers) => {
    const method = path === '/api/import' ? 'POST' : 'GET';
    const answer = await raw(app, path, {
      method,
      headers,
      ...(method === 'POST' ? { body: 'x' } : {}),
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expect(answer.body).not.toMatch(/at \w+ \(|URI malformed|EISDIR|TypeError|RangeError/);
  });

  it('answers a malformed cookie and a multibyte token of the right length with a 4xx', async () => {
    const cookie = await raw(guarded, '/api/sources', {
      headers: { Cookie: 'chatgraph_token=%E0%A4%A' },
    });
    expect(cookie.status).toBe(400);
    expect(cookie.body).toContain('malformed % escape');
    const multibyte = await raw(guarded, '/api/sources', {
      headers: { Authorization: `Bearer ${'a'.repeat(31)}é` },
    });
    expect(multibyte.status).toBe(401);
    expect(
      (await raw(guarded, '/api/sources', { headers: { Authorization: `Bearer ${TOKEN}` } }))
        .status,
    ).toBe(200);
  });

  it('logs no stack trace for any of it', () => {
    expect(logged.filter((line) => line.includes('chatgraph serve:'))).toEqual([]);
  });

  it('pages a conversation, and the pages join to the whole', async () => {
    const whole = JSON.parse((await raw(app, '/api/conversations/gpt-a')).body) as {
      messages: { id: string }[];
      total: number;
      nextOffset: number | null;
    };
    expect(whole.total).toBe(whole.messages.length);
    expect(whole.nextOffset).toBeNull();
    const ids: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = JSON.parse(
        (await raw(app, `/api/conversations/gpt-a?offset=${String(offset)}&limit=2`)).body,
      ) as { messages: { id: string }[]; nextOffset: number | null };
      expect(page.messages.length).toBeLessThanOrEqual(2);
      ids.push(...page.messages.map((m) => m.id));
      offset = page.nextOffset;
    }
    expect(ids).toEqual(whole.messages.map((m) => m.id));
    expect((await raw(app, '/api/conversations/gpt-a?limit=5001')).status).toBe(400);
  });

  it('stops a stalled upload and frees the import slot', async () => {
    // Declares a body and sends a few bytes of it, then nothing: the server answers by itself.
    const stalled = await raw(app, '/api/import', {
      method: 'POST',
      headers: { 'X-File-Name': 'conversations.json', 'Content-Length': '100000' },
      body: '[{"title": ',
      end: false,
    });
    expect(stalled.status).toBe(408);
    expect(stalled.body).toContain('no data came for 1 s');
    // The slot is free: the next upload is taken (not 409) and refused only for what it is.
    const next = await raw(app, '/api/import', {
      method: 'POST',
      headers: { 'X-File-Name': 'notes.txt' },
      body: 'not an export',
    });
    expect(next.status).toBe(202);
  });

  it('refuses a hidden write over /api/cypher, and the graph is unchanged', async () => {
    const count = 'MATCH (c:Conversation) RETURN count(c) AS n';
    const before = JSON.parse(
      (await postJson(app, '/api/cypher', { query: count })).body,
    ) as unknown;
    const write = await postJson(app, '/api/cypher', {
      query:
        "MATCH (c:Conversation) WHERE c.source <> 'x//' REMOVE c:Conversation SET c:Project RETURN count(c)",
    });
    expect(write.status).toBe(400);
    expect(write.body).toContain('writes are refused');
    const after = JSON.parse((await postJson(app, '/api/cypher', { query: count })).body) as {
      rows: unknown;
    };
    expect(after.rows).toEqual((before as { rows: unknown }).rows);
  });

  it('stops a slow query at the deadline while other requests are answered', async () => {
    let cypherDone = false;
    const slow = postJson(app, '/api/cypher', {
      query:
        'UNWIND range(1, 30000) AS a RETURN sum(reduce(s = 0, x IN range(1, 3000) | s + x * a)) AS n',
    }).finally(() => {
      cypherDone = true;
    });
    const sources = await raw(app, '/api/sources');
    expect(sources.status).toBe(200);
    expect(cypherDone).toBe(false);
    const answer = await slow;
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error:
        "the query ran longer than 6 s and was stopped (the web app's limit, set when it is started: chatgraph serve --query-timeout)",
    });
  });

  it('stops a query that eats memory under the memory limit', async () => {
    const answer = await postJson(app, '/api/cypher', {
      query: 'UNWIND range(1, 100000000) AS x RETURN collect(x) AS c',
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({
      error:
        "the query needed more than 256 MB and was stopped (the web app's limit, set when it is started: chatgraph serve --query-memory)",
    });
  });
});
