import type { ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpData, startMcpHttp, stdioClient } from './support/mcp-fixtures.js';
import { chatgraph } from './support/run-cli.js';
import { cleanUp } from './support/clean-up.js';

// What an agent trips on (issue 15 §3), asked of the built server through the SDK's client,
// which itself checks each structuredContent against the tool's outputSchema; Ajv checks it
// again here against the JSON Schema the server advertises.

type CallResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};

// The default answer budget: text and structured content together, as sent.
const BUDGET = 24 * 1024;
let client: Client;
let data = '';
const validators = new Map<string, ValidateFunction>();

beforeAll(async () => {
  data = await mcpData();
  client = await stdioClient(data);
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  for (const tool of (await client.listTools()).tools)
    if (tool.outputSchema) validators.set(tool.name, ajv.compile(tool.outputSchema));
}, 120_000);

afterAll(
  cleanUp(async () => {
    await client.close();
  }),
);

async function call(name: string, args: Record<string, unknown>): Promise<CallResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallResult;
  if (!result.isError) {
    const validate = validators.get(name);
    expect(validate, `${name} advertises an outputSchema`).toBeDefined();
    expect(validate?.(result.structuredContent), JSON.stringify(validate?.errors)).toBe(true);
    expect(result.structuredContent).toHaveProperty('truncated');
    const sent = { content: result.content, structuredContent: result.structuredContent };
    expect(Buffer.byteLength(JSON.stringify(sent))).toBeLessThanOrEqual(BUDGET);
  }
  return result;
}

const text = (result: CallResult): string => result.content.map((c) => c.text).join('\n');

describe('what the MCP server advertises', () => {
  it('gives every tool an outputSchema and every parameter a description', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThanOrEqual(6);
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe('object');
      const properties = (tool.inputSchema.properties ?? {}) as Record<
        string,
        { description?: string }
      >;
      for (const [name, schema] of Object.entries(properties))
        expect(schema.description, `${tool.name}.${name}`).toMatch(/\w/);
    }
  });

  it('makes role an enum, source a string, and advertises no list that changes', async () => {
    const { tools } = await client.listTools();
    const search = tools.find((t) => t.name === 'search_conversations');
    const properties = search?.inputSchema.properties as Record<
      string,
      { enum?: string[]; type?: string; description?: string }
    >;
    // Twenty-odd sources as an enum would cost each tool that takes one its share of 12 KB.
    expect(properties.source?.enum).toBeUndefined();
    expect(properties.source?.type).toBe('string');
    expect(properties.source?.description).toMatch(/stats/);
    expect(properties.role?.enum).toEqual(['user', 'assistant', 'system', 'tool']);
    const capabilities = client.getServerCapabilities();
    expect(capabilities?.tools?.listChanged).toBe(false);
    expect(capabilities?.resources?.listChanged).toBeFalsy();
  });
});

describe('ids that chain', () => {
  it("puts chatgraph's conversation id in the header and each message's id in the text", async () => {
    const byPlatform = await call('get_conversation', { id: 'conv-short' });
    const conversation = byPlatform.structuredContent?.conversation as { id: string };
    expect(conversation.id).not.toBe('conv-short');
    expect(text(byPlatform)).toContain(`id ${conversation.id} (platform id conv-short)`);
    expect(byPlatform.structuredContent?.matchedId).toBe('platform');
    expect(text(byPlatform)).toMatch(/found by the platform's conversation id/);
    const byOwn = await call('get_conversation', { id: conversation.id });
    expect(byOwn.structuredContent?.matchedId).toBe('chatgraph');
    expect(text(byOwn)).toMatch(/found by chatgraph's conversation id/);

    // The message id as the text gives it is the one get_message_context takes.
    const ids = [...text(byOwn).matchAll(/· message (\S+)/g)].map((m) => m[1] ?? '');
    expect(ids).toHaveLength(2);
    const context = await call('get_message_context', { message_id: ids[1], before: 1, after: 0 });
    expect(context.isError).toBeFalsy();
    expect(context.structuredContent).toMatchObject({ messageId: ids[1], matchedId: 'chatgraph' });
    expect(text(context)).toContain(`→ [assistant · `);
    expect(text(context)).toContain(`message ${ids[0] ?? ''}]`);
    expect(text(context)).toContain(conversation.id);
  });

  it("takes the platform's message id and says so", async () => {
    const context = await call('get_message_context', { message_id: 'conv-short-m1', before: 1 });
    expect(context.structuredContent).toMatchObject({ matchedId: 'platform' });
    expect(text(context)).toMatch(/found by the platform's message id/);
    expect(text(context)).toContain('hi, how can I help?');
  });
});

describe('sources and roles by name', () => {
  it('takes product names in any case, and refuses a source that is none', async () => {
    const claude = await call('list_conversations', { source: 'claude', limit: 1 });
    const total = claude.structuredContent?.total as number;
    expect(total).toBeGreaterThan(0);
    expect(await call('list_conversations', { source: 'Claude AI', limit: 1 })).toMatchObject({
      structuredContent: { total },
    });
    const chatgpt = await call('list_conversations', { source: 'ChatGPT' });
    expect(chatgpt.structuredContent?.total).toBe(3);
    const search = await call('search_conversations', {
      query: 'sourdough',
      source: 'CHATGPT',
      role: 'User',
      mode: 'keyword',
    });
    expect((search.structuredContent?.conversations as unknown[]).length).toBeGreaterThan(0);
    const bad = await call('list_conversations', { source: 'myspace' });
    expect(bad.isError).toBe(true);
    // The error lists the sources to choose from, as the schema no longer does.
    expect(text(bad)).toMatch(/source is one of .*chatgpt.*claude-ai/);
    // Every readable coding agent, and no store chatgraph cannot read (Windsurf's).
    expect(text(bad)).toMatch(/codex.*gemini-cli/);
    expect(text(bad)).not.toMatch(/windsurf/);
  });
});

describe('errors in MCP words', () => {
  it('says a date or a mode is wrong without naming a CLI flag', async () => {
    const bad = await call('search_conversations', { query: 'sourdough', since: 'yesterday-ish' });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toMatch(/since takes a date/);
    expect(text(bad)).not.toMatch(/--since/);
    const list = await call('list_conversations', { until: 'soon' });
    expect(text(list)).toMatch(/^until takes a date/);
    // No vectors in this history: the way out is named as the tool's parameter.
    const semantic = await call('search_conversations', { query: 'bread', mode: 'semantic' });
    expect(semantic.isError).toBe(true);
    expect(text(semantic)).toMatch(/mode keyword/);
    expect(text(semantic)).not.toMatch(/--mode/);
  });

  it('says a page is past the end', async () => {
    const past = await call('get_conversation', { id: 'conv-short', offset: 10_000 });
    expect(past.isError).toBe(true);
    expect(text(past)).toBe(
      'offset 10000 is past the end: the thread has 2 messages (offsets 0 to 1)',
    );
    const list = await call('list_conversations', { source: 'chatgpt', offset: 3 });
    expect(text(list)).toBe('offset 3 is past the end: 3 conversations match');
    const search = await call('search_conversations', {
      query: 'sourdough',
      offset: 1000,
      mode: 'keyword',
    });
    expect(text(search)).toMatch(/No conversations past the first 1000/);
    const rows = await call('search_conversations', {
      query: 'sourdough',
      offset: 1000,
      mode: 'keyword',
      group: 'message',
    });
    expect(text(rows)).toMatch(/No hits past the first 1000/);
  });

  it('answers an unknown resource with -32002', async () => {
    for (const uri of ['chatgraph://conversation/no-such', 'chatgraph://nothing']) {
      const error = await client.readResource({ uri }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(-32002);
    }
    const known = await client.readResource({ uri: 'chatgraph://conversation/conv-short' });
    expect((known.contents[0] as { text: string }).text).toContain('# Short chat');
  });
});

describe('the answer budget (24 KB)', () => {
  it('keeps run_cypher over every message within it, and says how to go on', async () => {
    const all = await call('run_cypher', { query: 'MATCH (m:Message) RETURN m.id, m.content' });
    expect(all.structuredContent?.truncated).toBe(true);
    const shown = all.structuredContent?.shown as number;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(all.structuredContent?.rowCount as number);
    expect(text(all)).toMatch(/Truncated/);
    expect(text(all)).toContain(`SKIP ${String(shown)}`);
    // The offered next page is a query that runs.
    const next = await call('run_cypher', {
      query: `MATCH (m:Message) RETURN m.id, m.content SKIP ${String(shown)} LIMIT ${String(shown)}`,
    });
    expect(next.isError).toBeFalsy();
    expect((next.structuredContent?.rows as unknown[]).length).toBeGreaterThan(0);
  });

  it('pages a long conversation from where the cut one stopped', async () => {
    const first = await call('get_conversation', { id: 'conv-long', limit: 200 });
    const { nextOffset, total, truncated } = first.structuredContent as Record<string, number>;
    expect(truncated).toBe(true);
    expect(total).toBe(60);
    expect(nextOffset).toBeGreaterThan(0);
    expect(nextOffset).toBeLessThan(60);
    expect(text(first)).toContain(`call again with offset ${String(nextOffset)}`);
    const second = await call('get_conversation', {
      id: 'conv-long',
      offset: nextOffset,
      limit: 200,
    });
    const messages = second.structuredContent?.messages as { content: string }[];
    expect(messages[0]?.content).toMatch(new RegExp(`^sourdough step ${String(nextOffset)} `));
  });

  it('cuts one message larger than the budget and says how to read the rest', async () => {
    // The first page holds the short question only, and says where the next one starts.
    const first = await call('get_conversation', { id: 'conv-huge' });
    expect(first.structuredContent).toMatchObject({ truncated: true, nextOffset: 1 });
    expect(text(first)).toContain('what is in this log?');
    const huge = await call('get_conversation', { id: 'conv-huge', offset: 1 });
    expect(huge.structuredContent).toMatchObject({ truncated: true, nextOffset: null });
    expect(text(huge)).toMatch(/cut at \d+ of 200000 characters/);
    // The parts offered fit the budget whole: the second one comes uncut.
    const size = Number(/substring\(m\.content, 0, (\d+)\)/.exec(text(huge))?.[1]);
    expect(size).toBeGreaterThanOrEqual(1000);
    const messages = huge.structuredContent?.messages as { id: string }[];
    const id = messages.at(-1)?.id ?? '';
    const part = await call('run_cypher', {
      query: `MATCH (m:Message {id: $id}) RETURN substring(m.content, ${String(size)}, ${String(size)}) AS part`,
      params: { id },
    });
    expect(part.structuredContent?.truncated).toBe(false);
    expect((part.structuredContent?.rows as { part: string }[])[0]?.part).toHaveLength(size);
    const context = await call('get_message_context', { message_id: id });
    expect(context.structuredContent?.truncated).toBe(true);
  });

  it('keeps a conversation resource within it too', async () => {
    const read = await client.readResource({ uri: 'chatgraph://conversation/conv-long' });
    const resource = (read.contents[0] as { text: string }).text;
    expect(Buffer.byteLength(resource)).toBeLessThanOrEqual(BUDGET);
    expect(resource).toMatch(
      /Truncated to the 24 KB result budget: \d+ of 60 messages; get_conversation/,
    );
  });

  it('keeps every other tool within it', async () => {
    await call('search_conversations', { query: 'sourdough', limit: 100, mode: 'keyword' });
    await call('list_conversations', { limit: 200 });
    await call('stats', {});
  });
});

describe('a budget of its own, over stateless HTTP', () => {
  let server: ChildProcess | undefined;
  afterAll(
    cleanUp(() => {
      server?.kill();
    }),
  );

  it('cuts to --max-result-kb, and answers GET with 405', async () => {
    const started = await startMcpHttp(data, ['--max-result-kb', '8']);
    server = started.server;
    const http = new Client({ name: 'chatgraph-test', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(new URL(started.url)));
    const result = (await http.callTool({
      name: 'run_cypher',
      arguments: { query: 'MATCH (m:Message) RETURN m.id, m.content' },
    })) as CallResult;
    expect(Buffer.byteLength(text(result))).toBeLessThanOrEqual(8 * 1024);
    expect(text(result)).toMatch(/within the 8 KB result budget/);
    expect(result.structuredContent?.truncated).toBe(true);
    await http.close();

    const status = await new Promise<{ code: number; allow: string | undefined }>(
      (resolve, reject) => {
        const get = request(
          started.url,
          { method: 'GET', headers: { accept: 'text/event-stream' } },
          (res) => {
            res.resume();
            resolve({ code: res.statusCode ?? 0, allow: res.headers.allow });
          },
        );
        get.on('error', reject);
        get.end();
      },
    );
    expect(status).toEqual({ code: 405, allow: 'POST' });
  });

  it('refuses a budget too small to say anything, as a usage error', async () => {
    const run = await chatgraph('mcp', '--data-dir', data, '--max-result-kb', '2');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--max-result-kb takes 4 \(KB\) or more, not "2"/);
  });
});
