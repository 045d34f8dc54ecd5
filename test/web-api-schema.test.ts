import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { importExports } from '../src/data-folder/import-exports.js';
import { DataFolder } from '../src/data-folder/data-folder.js';
import { embedStore } from '../src/recall/embed-store.js';
import { API, type RouteName, type RouteSpec } from '../src/web/api-schema.js';
import { errorBody } from '../src/web/api-responses.js';
import { startWebApp, type WebApp } from '../src/web/web-server.js';
import * as page from '../src/web/client/answers.js';
import { usage as usageReader } from '../src/web/client/usage-answer.js';
import { readAnswer, type Reader } from '../src/web/client/read-json.js';
import { pastedClaudeConversation } from './support/attachment-fixtures.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { FIXED_TIME, tempDir } from './support/convert-to-temp.js';
import { writeExport } from './support/recall-fixtures.js';
import { fixturesOf } from './support/shared.js';
import { raw, serverEvents } from './support/web-request.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

/**
 * Every route of the web API's table (src/web/api-schema.ts), called on a real server over a
 * small imported and embedded data folder, its answer checked against the route's schema: a
 * handler that drifts from the shared definitions (a field renamed, added or of another type)
 * fails here, and so does a route added to the table without being walked.
 */

let dataDir: string;
let folder: DataFolder;
let app: WebApp;
const walked = new Set<RouteName>();

beforeAll(async () => {
  const dir = tempDir();
  dataDir = join(dir, 'data');
  const branched = join(dir, 'branched.json');
  writeFileSync(branched, JSON.stringify([branchedConversation('gpt-a', 'Alpha about sourdough')]));
  const pasted = join(dir, 'pasted', 'conversations.json');
  mkdirSync(join(dir, 'pasted'));
  writeFileSync(pasted, JSON.stringify([pastedClaudeConversation()]));
  const topics = join(dir, 'topics');
  mkdirSync(topics);
  await importExports(
    new Folder(dataDir),
    [...fixturesOf('chatgpt'), branched, pasted, writeExport(topics)],
    { importedAt: FIXED_TIME },
  );
  folder = await DataFolder.open(dataDir);
  await embedStore(new Folder(dataDir));
  app = await startWebApp({ folder, port: 0, changes: () => 7 });
}, 240_000);

afterAll(
  cleanUp(async () => {
    await app.close();
    await folder.close();
  }),
);

/**
 * The page's readers of the same answers (src/web/client/answers.ts, the browser has no zod):
 * each must give back the real answer whole, so a reader that drifted from its schema, or left a
 * field out, fails here too.
 */
const PAGE_READERS: Partial<Record<RouteName, Reader<unknown>>> = {
  listConversations: page.conversationList,
  conversation: page.conversationPage,
  changes: page.changeCount,
  sources: page.sourceList,
  searchConversations: page.conversationSearchResult,
  similar: page.similarHits,
  graph: page.graphView,
  overview: page.stats,
  topics: page.topicMap,
  usage: usageReader,
  cypher: page.cypherResult,
  startImport: page.importJob,
  importJob: page.importJob,
  listMemories: page.memoryPage,
  remember: page.remembered,
  forget: page.forgotten,
};

function readByPage(name: RouteName, body: unknown): void {
  const reader = PAGE_READERS[name];
  if (reader) expect(readAnswer(name, body, reader), `${name}: the page's reader`).toEqual(body);
}

/** A route's path with its `:id`, and a query string. */
function pathOf(name: RouteName, id?: string, query?: Record<string, string>): string {
  const route: RouteSpec = API[name];
  const path = id === undefined ? route.path : route.path.replace(':id', encodeURIComponent(id));
  return query ? `${path}?${new URLSearchParams(query).toString()}` : path;
}

/** Calls a route as the table says, and checks its answer against the route's schema. */
async function call<N extends RouteName>(
  name: N,
  options: { id?: string; query?: Record<string, string>; body?: unknown } = {},
): Promise<z.output<NonNullable<(typeof API)[N]['response']>>> {
  const route: RouteSpec = API[name];
  const answer = await raw(app, pathOf(name, options.id, options.query), {
    method: route.method,
    ...(options.body !== undefined
      ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(options.body) }
      : {}),
  });
  expect(answer.status, `${name}: ${answer.body}`).toBe(route.status ?? 200);
  if (!route.response) throw new Error(`${name} answers no JSON: check it on its own`);
  const body: unknown = JSON.parse(answer.body);
  const parsed = route.response.safeParse(body);
  if (!parsed.success) throw new Error(`${name} drifted from its schema: ${parsed.error.message}`);
  readByPage(name, body);
  walked.add(name);
  return parsed.data as z.output<NonNullable<(typeof API)[N]['response']>>;
}

/** A refused request: a 400 whose one-line message names the parameter. */
async function refused(
  name: RouteName,
  parameter: string,
  options: { id?: string; query?: Record<string, string>; body?: unknown },
): Promise<void> {
  const route: RouteSpec = API[name];
  const answer = await raw(app, pathOf(name, options.id, options.query), {
    method: route.method,
    ...(options.body !== undefined
      ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(options.body) }
      : {}),
  });
  expect(answer.status, `${name} ${parameter}: ${answer.body}`).toBe(400);
  const { error } = errorBody.parse(JSON.parse(answer.body));
  expect(error).toMatch(new RegExp(`^${parameter}\\b`));
  expect(error).not.toContain('\n');
}

describe('the web API against its shared definitions', () => {
  it('answers the conversation routes as their schemas say', async () => {
    const list = await call('listConversations', { query: { limit: '100', sort: 'oldest' } });
    expect(list.items.length).toBeGreaterThan(3);
    expect(await call('sources')).toContain('claude-ai');
    const pasted = list.items.find((c) => c.name === 'Pasted notes');
    const page = await call('conversation', { id: pasted?.id ?? 'missing' });
    const attached = page.messages.flatMap((m) => m.attachments);
    expect(attached.some((a) => a.text !== null)).toBe(true);
    const tools = await Promise.all(list.items.map((c) => call('conversation', { id: c.id })));
    expect(tools.some((c) => c.messages.some((m) => m.toolCalls.length > 0))).toBe(true);
    const second = await call('conversation', { id: 'gpt-a', query: { offset: '1', limit: '1' } });
    expect([second.offset, second.messages.length, second.nextOffset]).toEqual([1, 1, 2]);
    const graph = await call('graph', {
      id: 'gpt-a',
      query: { message: second.messages[0]?.id ?? '' },
    });
    expect(graph.focus).toBe(second.messages[0]?.id);
    await call('overview');
    expect(await call('changes')).toEqual({ changes: 7 });

    // The file itself: no JSON, checked on its own.
    const ref = attached.find((a) => a.ref !== null)?.ref ?? '';
    const file = await raw(app, pathOf('attachment', pasted?.id, { ref }));
    expect(file.status).toBe(200);
    expect(file.body).toContain('quokka');
    walked.add('attachment');

    // The conversation as a download, as `export` renders it: Markdown and a page with no script.
    const markdown = await raw(
      app,
      pathOf('conversationExport', pasted?.id, { format: 'markdown' }),
    );
    expect(markdown.status).toBe(200);
    expect(markdown.body.startsWith('---\ntitle: Pasted notes\n')).toBe(true);
    expect(markdown.body).toContain('quokka');
    const html = await raw(app, pathOf('conversationExport', 'gpt-a', { format: 'html' }));
    expect(html.status).toBe(200);
    expect(html.body).toContain('<h1>Alpha about sourdough</h1>');
    expect(html.body).not.toContain('<script');
    await refused('conversationExport', 'format', { id: 'gpt-a', query: { format: 'pdf' } });
    const missing = await raw(app, pathOf('conversationExport', 'no-such-one', { format: 'html' }));
    expect(missing.status).toBe(404);
    walked.add('conversationExport');
  });

  it('answers search, similar messages and Cypher as their schemas say', async () => {
    const words = await call('search', { query: { q: 'sourdough', mode: 'keyword' } });
    expect(words.hits.length).toBeGreaterThan(0);
    const grouped = await call('searchConversations', {
      query: { q: 'sourdough', mode: 'keyword' },
    });
    const ids = grouped.conversations.map((c) => c.conversationId);
    expect(ids).toEqual([...new Set(words.hits.map((h) => h.conversationId))].slice(0, ids.length));
    expect(grouped.conversations.every((c) => c.best.messageId !== '')).toBe(true);
    expect(grouped.summary).toMatch(/conversations? ha(s|ve) the word/);
    const meaning = await call('search', { query: { q: 'my bread starter smells odd' } });
    expect(meaning.mode).toBe('hybrid');
    const topics = await call('topics');
    expect(topics.embedded).toBe(true);
    expect(topics.clusters.length).toBeGreaterThan(0);
    const misspelt = await call('search', { query: { q: 'sourdouhg', mode: 'keyword' } });
    expect(misspelt.hint).toBe('sourdough');
    // No word matches: what stands out in meaning is offered instead, and for nonsense nothing.
    const nearby = await call('search', { query: { q: 'leaven odour', mode: 'keyword' } });
    expect(nearby.hits).toEqual([]);
    expect(nearby.nearest?.length).toBeGreaterThan(0);
    const nowhere = await call('search', { query: { q: 'quuxwobble', mode: 'keyword' } });
    expect(nowhere.hits).toEqual([]);
    expect(nowhere.nearest).toEqual([]);
    const hit = meaning.hits.find((h) => h.why?.semantic);
    expect(hit).toBeDefined();
    const similar = await call('similar', { id: hit?.messageId ?? '', query: { limit: '3' } });
    expect(similar.hits.length).toBeGreaterThan(0);
    const rows = await call('cypher', {
      body: { query: 'MATCH (c:Conversation) RETURN count(c) AS n', params: {} },
    });
    expect(rows.rows[0]?.n).toBeGreaterThan(0);
  });

  it('answers the usage report as its schema says, and refuses a grouping it has not', async () => {
    const usage = await call('usage', { query: { by: 'month', breakdown: '1', tz: 'UTC' } });
    expect(usage.by).toBe('month');
    expect(usage.timeZone).toBe('UTC');
    // With `estimate=1` (the CLI's --estimate): the chat exports' estimated rows and their sum.
    const estimated = await call('usage', {
      query: { by: 'month', breakdown: '1', tz: 'UTC', estimate: '1' },
    });
    expect(estimated.rows.some((row) => row.estimated === true)).toBe(true);
    expect(estimated.estimated?.total.total_tokens).toBeGreaterThan(0);
    expect(usage.estimated).toBeUndefined();
    await refused('usage', 'by', { query: { by: 'dya' } });
  });

  it('answers the memory routes as their schemas say', async () => {
    const made = await call('remember', {
      body: { content: 'Prefers rye flour', type: 'preference', tags: ['baking'] },
    });
    expect(made.created).toBe(true);
    const revised = await call('revise', {
      id: made.memory.id,
      body: { content: 'Prefers spelt flour' },
    });
    expect(revised.previous.status).toBe('superseded');
    const listed = await call('listMemories', { query: { type: 'preference', all: '1' } });
    expect(listed.total).toBe(2);
    const found = await call('search', { query: { q: 'spelt' } });
    expect(found.memories?.map((m) => m.kind)).toEqual(['memory']);
    const grouped = await call('searchConversations', { query: { q: 'spelt' } });
    expect(grouped.memories.map((m) => m.kind)).toEqual(['memory']);
    expect((await call('forget', { id: revised.memory.id })).memory.status).toBe('retracted');
  });

  it('answers an import and its events as their schemas say', async () => {
    const upload = await raw(app, pathOf('startImport'), {
      method: API.startImport.method,
      headers: { 'X-File-Name': 'conversations.json' },
      body: readFileSync(fixturesOf('deepseek')[0] ?? ''),
    });
    expect(upload.status, upload.body).toBe(API.startImport.status);
    const job = API.startImport.response.parse(JSON.parse(upload.body));
    readByPage('startImport', JSON.parse(upload.body));
    walked.add('startImport');
    const events = (await serverEvents(app, pathOf('importEvents', job.id))).map((event) => {
      readByPage('importJob', event);
      return API.importEvents.events.parse(event);
    });
    walked.add('importEvents');
    expect(events.at(-1)?.state).toBe('done');
    expect(await call('importJob', { id: job.id })).toEqual(events.at(-1));
    expect((await raw(app, pathOf('importEvents', 'no-such-job'))).status).toBe(404);
  });

  it('refuses a bad request with a 400 naming the parameter', async () => {
    await refused('listConversations', 'sort', { query: { sort: 'sideways' } });
    await refused('listConversations', 'limit', { query: { limit: 'ten' } });
    await refused('conversation', 'offset', { id: 'gpt-a', query: { offset: '-1' } });
    await refused('conversation', 'limit', { id: 'gpt-a', query: { limit: '0' } });
    await refused('search', 'mode', { query: { q: 'x', mode: 'psychic' } });
    await refused('search', 'offset', { query: { q: 'x', offset: '1.5' } });
    await refused('similar', 'limit', { id: 'x', query: { limit: 'many' } });
    await refused('listMemories', 'type', { query: { type: 'rumour' } });
    await refused('listMemories', 'limit', { query: { limit: '-3' } });
    await refused('remember', 'content', { body: { content: '', type: 'fact' } });
    await refused('remember', 'type', { body: { content: 'x', type: 'rumour' } });
    await refused('revise', 'confidence', { id: 'm', body: { confidence: 2 } });
    await refused('cypher', 'query', { body: { query: ' ' } });
    await refused('cypher', 'params', { body: { query: 'RETURN 1', params: [1] } });
  });

  it('deletes a conversation as its schema says', async () => {
    const gone = await call('deleteConversation', { id: 'gpt-a' });
    expect(gone.bundle).toBe(true);
  });

  it('walked every route of the table', () => {
    expect([...walked].sort()).toEqual(Object.keys(API).sort());
  });
});
