import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { DataFolder } from '../src/data-folder/data-folder.js';
import type { StoreReader } from '../src/index.js';
import { startWebApp, type WebApp } from '../src/web/web-server.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { FIXED_TIME, tempDir } from './support/convert-to-temp.js';
import { fixturesOf } from './support/shared.js';
import { raw, serverEvents } from './support/web-request.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

async function json<T>(app: WebApp, path: string): Promise<T> {
  const response = await raw(app, path);
  expect(response.status, response.body).toBe(200);
  return JSON.parse(response.body) as T;
}

type JobEnd = { state: string; error?: string; report?: { problems: { code: string }[] } };

let dataDir: string;
let store: StoreReader;
let folder: DataFolder;
let app: WebApp;

beforeAll(async () => {
  const dir = tempDir();
  dataDir = join(dir, 'data');
  const branched = join(dir, 'branched.json');
  writeFileSync(branched, JSON.stringify([branchedConversation('gpt-a', 'Alpha about sourdough')]));
  await importExports(
    new Folder(dataDir),
    [...fixturesOf('chatgpt'), ...fixturesOf('claude-ai'), branched],
    { importedAt: FIXED_TIME },
  );
  folder = await DataFolder.open(dataDir);
  store = await folder.reader();
  app = await startWebApp({ folder, port: 0, maxUploadBytes: 5 * 1024 * 1024 });
});

afterAll(
  cleanUp(async () => {
    await app.close();
    await folder.close();
  }),
);

describe('the web app API', () => {
  it('serves the page with a strict Content-Security-Policy', async () => {
    const page = await raw(app, '/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<script type="module" src="/app/main.js">');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'self' 'sha256-/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const main = await raw(app, '/app/main.js');
    expect(main.status).toBe(200);
    // Asked again with the version it has, the browser gets a 304 and no body; a stale version
    // gets the file.
    const etag = String(main.headers['etag']);
    expect(etag).toMatch(/^"[\w-]{22}"$/);
    const again = await raw(app, '/app/main.js', { headers: { 'If-None-Match': etag } });
    expect([again.status, again.body, again.headers['etag']]).toEqual([304, '', etag]);
    const stale = await raw(app, '/app/main.js', { headers: { 'If-None-Match': '"old"' } });
    expect([stale.status, stale.body]).toEqual([200, main.body]);
    expect((await raw(app, '/vendor/marked.js')).headers['etag']).not.toBe(etag);
    expect((await raw(app, '/vendor/dompurify.js')).status).toBe(200);
    expect((await raw(app, '/app/../../package.json')).status).toBe(404);
    expect((await raw(app, '/app/%2e%2e/%2e%2e/package.json')).status).toBe(404);
  });

  it('lists conversations a page at a time, with filters', async () => {
    const all = await json<{ total: number; items: { name: string; source: string }[] }>(
      app,
      '/api/conversations?limit=3',
    );
    expect(all.items).toHaveLength(3);
    expect(all.total).toBeGreaterThan(3);
    const claude = await json<{ items: { source: string }[] }>(
      app,
      '/api/conversations?source=claude-ai&limit=100',
    );
    expect(new Set(claude.items.map((c) => c.source))).toEqual(new Set(['claude-ai']));
    const branched = await json<{ items: { name: string }[] }>(
      app,
      '/api/conversations?branches=1&title=alpha',
    );
    expect(branched.items.map((c) => c.name)).toEqual(['Alpha about sourdough']);
    expect((await raw(app, '/api/conversations?sort=sideways')).status).toBe(400);
    // Relative bounds are dates too (issue 15); words that are none are refused.
    expect((await raw(app, '/api/conversations?since=someday')).status).toBe(400);
    expect((await raw(app, '/api/conversations?since=yesterday')).status).toBe(200);
  });

  it('gives a conversation with every branch, tool calls and attachments', async () => {
    const { conversation, messages } = await json<{
      conversation: { id: string };
      messages: { content: string; onShownThread: boolean; parentId: string | null }[];
    }>(app, '/api/conversations/gpt-a');
    expect(messages.map((m) => [m.content, m.onShownThread])).toEqual([
      ['hello', true],
      ['first answer', false],
      ['second answer', true],
    ]);
    expect(conversation.id).toMatch(/^[0-9a-f-]{36}$/);
    const page = await json<{ items: { id: string }[] }>(app, '/api/conversations?limit=100');
    const withTools = await Promise.all(
      page.items.map((c) =>
        json<{ messages: { toolCalls: unknown[]; attachments: unknown[] }[] }>(
          app,
          `/api/conversations/${c.id}`,
        ),
      ),
    );
    expect(withTools.some((c) => c.messages.some((m) => m.toolCalls.length > 0))).toBe(true);
    expect(withTools.some((c) => c.messages.some((m) => m.attachments.length > 0))).toBe(true);
    expect((await raw(app, '/api/conversations/nope')).status).toBe(404);
  });

  it('searches with filters and reports bad dates', async () => {
    const result = await json<{ hits: { title: string; snippet: string }[] }>(
      app,
      '/api/search?q=second',
    );
    expect(result.hits.map((h) => h.title)).toContain('Alpha about sourdough');
    const none = await json<{ hits: unknown[] }>(app, '/api/search?q=second&role=user');
    expect(none.hits).toEqual([]);
    const bad = await raw(app, '/api/search?q=x&since=soon');
    expect(bad.status).toBe(400);
    // In the web API's words, not the CLI's: no "--since".
    expect((JSON.parse(bad.body) as { error: string }).error).toMatch(/^since takes a date/);
  });

  it('gives the graph around a conversation', async () => {
    const graph = await json<{
      nodes: { label: string }[];
      edges: { kind: string; from: string; to: string }[];
    }>(app, '/api/graph/gpt-a');
    expect(graph.nodes.filter((n) => n.label === 'Message')).toHaveLength(3);
    expect(graph.edges.filter((e) => e.kind === 'REPLY_TO')).toHaveLength(2);
    expect(graph.edges.filter((e) => e.kind === 'NEXT')).toHaveLength(1);
  });

  it('runs read-only Cypher and refuses writes', async () => {
    const post = (body: unknown): ReturnType<typeof raw> =>
      raw(app, '/api/cypher', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ok = await post({
      query: 'MATCH (c:Conversation {conversation_id: $id}) RETURN c.name AS name',
      params: { id: 'gpt-a' },
    });
    expect(JSON.parse(ok.body)).toMatchObject({ rows: [{ name: 'Alpha about sourdough' }] });
    const write = await post({ query: 'MATCH (n:Message) DETACH DELETE n' });
    expect(write.status).toBe(400);
    expect(write.body).toMatch(/writes are refused/);
    expect((await post({ query: '' })).status).toBe(400);
  });

  it('gives the overview: months, sources, roles, models', async () => {
    const stats = await json<{ byMonth: unknown[]; byModel: { model: string }[] }>(
      app,
      '/api/overview',
    );
    expect(stats.byMonth.length).toBeGreaterThan(0);
    expect(stats.byModel.map((m) => m.model)).toContain('gpt-4o');
  });

  it('refuses a foreign Host or Origin (DNS rebinding, other sites)', async () => {
    const foreignHost = await raw(app, '/api/sources', {
      headers: { Host: `attacker.example:${app.port}` },
    });
    expect(foreignHost.status).toBe(403);
    const foreignOrigin = await raw(app, '/api/cypher', {
      method: 'POST',
      headers: { Origin: 'http://attacker.example', 'Content-Type': 'application/json' },
      body: '{"query":"MATCH (c:Conversation) RETURN c"}',
    });
    expect(foreignOrigin.status).toBe(403);
    const sameOrigin = await raw(app, '/api/sources', {
      headers: { Origin: `http://127.0.0.1:${app.port}` },
    });
    expect(sameOrigin.status).toBe(200);
    expect(
      (await raw(app, '/api/sources', { headers: { Host: `localhost:${app.port}` } })).status,
    ).toBe(200);
  });

  it('imports an upload through the same checks as the CLI, and limits its size', async () => {
    const before = (await store.stats()).conversations;
    const fixture = fixturesOf('deepseek')[0] ?? '';
    const upload = await raw(app, '/api/import', {
      method: 'POST',
      headers: { 'X-File-Name': 'conversations.json', 'Content-Type': 'application/octet-stream' },
      body: readFileSync(fixture),
    });
    expect(upload.status, upload.body).toBe(202);
    const { id } = JSON.parse(upload.body) as { id: string };
    type Job = { state: string; report?: { totals: { conversations: number } }; error?: string };
    // The job's events end with the job: the last one is how it ended.
    const ended = async (jobId: string): Promise<Job> => {
      const events = (await serverEvents(app, `/api/import/${jobId}/events`)) as Job[];
      expect(events.slice(0, -1).every((e) => e.state === 'running')).toBe(true);
      return events.at(-1) ?? { state: 'no events' };
    };
    let job = await ended(id);
    expect(job.state).toBe('done');
    expect(await json(app, `/api/import/${id}`)).toEqual(job);
    expect(job.report?.totals.conversations).toBeGreaterThan(0);
    expect((await store.stats()).conversations).toBe(
      before + (job.report?.totals.conversations ?? 0),
    );

    const junk = await raw(app, '/api/import', {
      method: 'POST',
      headers: { 'X-File-Name': 'notes.txt' },
      body: 'just some notes',
    });
    job = await ended((JSON.parse(junk.body) as { id: string }).id);
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(/not a chat export/);

    const big = await raw(app, '/api/import', {
      method: 'POST',
      headers: { 'X-File-Name': 'big.zip' },
      body: Buffer.alloc(6 * 1024 * 1024),
    });
    expect(big.status).toBe(413);
    expect(big.body).toMatch(/upload limit of 5 MB/);
    expect((await raw(app, '/api/import', { method: 'POST', body: 'x' })).status).toBe(400);
  });

  // The restore rules are the folder's import verb's, not the CLI's: an upload keeps a deleted
  // conversation out, and `restore=1` brings it back, as `import --restore` does.
  it('keeps a deleted conversation out of an upload of its export, unless restore is asked', async () => {
    const exportText = JSON.stringify([branchedConversation('gpt-kites', 'Kites in the wind')]);
    const upload = async (body: string, query = ''): Promise<JobEnd> => {
      const started = await raw(app, `/api/import${query}`, {
        method: 'POST',
        headers: { 'X-File-Name': 'conversations.json' },
        body,
      });
      expect(started.status, started.body).toBe(202);
      const { id } = JSON.parse(started.body) as { id: string };
      const events = (await serverEvents(app, `/api/import/${id}/events`)) as JobEnd[];
      return events.at(-1) ?? { state: 'no events' };
    };
    expect((await upload(exportText)).state).toBe('done');
    const gone = await raw(app, '/api/conversations/gpt-kites', { method: 'DELETE' });
    expect(gone.status, gone.body).toBe(200);
    const { id } = JSON.parse(gone.body) as { id: string };
    expect(await store.conversation(id)).toBeUndefined();
    // The same export again (a byte more, so it is read rather than skipped as imported).
    const again = await upload(`${exportText}\n`);
    expect(again.state, again.error).toBe('done');
    expect(again.report?.problems.map((p) => p.code)).toContain('deleted-conversation-left-out');
    expect(await store.conversation(id)).toBeUndefined();
    const restored = await upload(exportText, '?restore=1');
    expect(restored.state, restored.error).toBe('done');
    expect((await store.conversation(id))?.title).toBe('Kites in the wind');
    expect(await folder.tombstones()).toEqual([]);
  });

  it('never serves a file from outside the bundle attachments', async () => {
    const id = '00000000-0000-0000-0000-000000000000';
    const escape = await raw(
      app,
      `/api/attachment/${id}?ref=${encodeURIComponent('../../chatgraph.sqlite')}`,
    );
    expect(escape.status).toBe(404);
  });
});

describe('the web app with a token', () => {
  it('requires the token on every request, and turns the printed address into a cookie', async () => {
    const guarded = await startWebApp({ folder, port: 0, token: 'sesame' });
    try {
      expect(guarded.url).toBe(`http://127.0.0.1:${guarded.port}/?token=sesame`);
      expect((await raw(guarded, '/api/sources')).status).toBe(401);
      expect((await raw(guarded, '/')).status).toBe(401);
      expect(
        (await raw(guarded, '/api/sources', { headers: { Authorization: 'Bearer wrong' } })).status,
      ).toBe(401);
      expect(
        (await raw(guarded, '/api/sources', { headers: { Authorization: 'Bearer sesame' } }))
          .status,
      ).toBe(200);
      const open = await raw(guarded, '/?token=sesame');
      expect(open.status).toBe(303);
      const cookie = String((open.headers['set-cookie'] as string[])[0]).split(';')[0] ?? '';
      expect(cookie).toBe('chatgraph_token=sesame');
      expect((await raw(guarded, '/api/sources', { headers: { Cookie: cookie } })).status).toBe(
        200,
      );
    } finally {
      await guarded.close();
    }
  });

  it('makes up a token when listening beyond this machine', async () => {
    const wide = await startWebApp({ folder, port: 0, host: '0.0.0.0' });
    try {
      expect(wide.token).toMatch(/^[\w-]{32}$/);
      expect(wide.url).toContain(`?token=${wide.token ?? ''}`);
      expect((await raw(wide, '/api/sources')).status).toBe(401);
    } finally {
      await wide.close();
    }
  });
});
