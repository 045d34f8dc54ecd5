import type { ChildProcess } from 'node:child_process';
import { spawnOwned } from './support/owned-process.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');

type CallResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};

async function makeData(): Promise<string> {
  const dir = tempDir();
  const input = join(dir, 'conversations.json');
  const a = branchedConversation('conv-a', 'Sourdough starter');
  const mapping = a.mapping as Record<string, { message: { content: unknown } }>;
  mapping.u!.message.content = {
    content_type: 'text',
    parts: ['how do I feed a sourdough starter?'],
  };
  writeFileSync(input, JSON.stringify([a, branchedConversation('conv-b', 'Other')]));
  const data = join(dir, 'data');
  await importExports(new Folder(data), [input]);
  return data;
}

function exercise(name: string, connect: () => Promise<Client>): void {
  describe(`MCP server over ${name}`, () => {
    let client: Client;
    beforeAll(async () => {
      client = await connect();
    });
    afterAll(
      cleanUp(async () => {
        await client.close();
      }),
    );
    const call = async (tool: string, args: Record<string, unknown>): Promise<CallResult> =>
      (await client.callTool({ name: tool, arguments: args })) as CallResult;

    it('lists its tools with input schemas', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([
        'forget',
        'get_conversation',
        'get_message_context',
        'list_conversations',
        'list_memories',
        'recent_activity',
        'remember',
        'run_cypher',
        'search_conversations',
        'stats',
        'usage',
      ]);
      for (const tool of tools) expect(tool.inputSchema.type).toBe('object');
    });

    it('searches, reads, lists, gives context, runs Cypher and counts', async () => {
      const search = await call('search_conversations', { query: 'sourdough starter', limit: 5 });
      expect(search.isError).toBeFalsy();
      const found = search.structuredContent?.conversations as {
        conversationId: string;
        best: { messageId: string; snippet: string };
      }[];
      expect(found).toHaveLength(1);
      expect(found[0]?.best.snippet).toContain('**sourdough**');
      expect(search.content[0]?.text).toContain('Sourdough starter');
      const rows = await call('search_conversations', {
        query: 'sourdough starter',
        limit: 5,
        group: 'message',
      });
      const hits = rows.structuredContent?.hits as { messageId: string; snippet: string }[];
      expect(hits).toHaveLength(1);
      expect(hits[0]?.messageId).toBe(found[0]?.best.messageId);

      const conversation = await call('get_conversation', { id: 'conv-a', limit: 1 });
      expect(conversation.structuredContent).toMatchObject({ total: 2, offset: 0, nextOffset: 1 });
      const all = await call('get_conversation', { id: 'conv-a', branch: 'all' });
      expect(all.structuredContent?.total).toBe(3);

      const list = await call('list_conversations', {
        sort: 'newest',
        limit: 10,
        title: 'sourdough',
      });
      expect(list.structuredContent?.total).toBe(1);

      const context = await call('get_message_context', {
        message_id: hits[0]?.messageId,
        before: 2,
        after: 2,
      });
      expect((context.structuredContent?.messages as unknown[]).length).toBe(2);

      const cypher = await call('run_cypher', {
        query: 'MATCH (c:Conversation) WHERE c.conversation_id = $id RETURN c.name AS name',
        params: { id: 'conv-b' },
      });
      expect(cypher.structuredContent).toMatchObject({
        rows: [{ name: 'Other' }],
        rowCount: 1,
        truncated: false,
      });

      const stats = await call('stats', {});
      expect(stats.structuredContent).toMatchObject({ conversations: 2, messages: 6 });
    });

    it('answers bad input with tool errors and keeps running', async () => {
      const unknown = await call('get_conversation', { id: 'no-such-conversation' });
      expect(unknown.isError).toBe(true);
      expect(unknown.content[0]?.text).toMatch(/no conversation with id no-such-conversation/);
      const badDate = await call('search_conversations', {
        query: 'sourdough',
        since: 'yesterday-ish',
      });
      expect(badDate.isError).toBe(true);
      const tooMany = await call('search_conversations', { query: 'sourdough', limit: 100_000 });
      expect(tooMany.isError).toBe(true);
      const write = await call('run_cypher', { query: 'MATCH (c:Conversation) DETACH DELETE c' });
      expect(write.isError).toBe(true);
      expect(write.content[0]?.text).toMatch(/writes are refused/);
      const message = await call('get_message_context', { message_id: 'nope' });
      expect(message.isError).toBe(true);
      // Still serving.
      const stats = await call('stats', {});
      expect(stats.structuredContent).toMatchObject({ conversations: 2 });
    });

    it('serves each conversation and the schema as resources', async () => {
      const conversation = await client.readResource({ uri: 'chatgraph://conversation/conv-a' });
      const text = (conversation.contents[0] as { text: string }).text;
      expect(text).toContain('# Sourdough starter');
      expect(text).toContain('how do I feed a sourdough starter?');
      const schema = await client.readResource({ uri: 'chatgraph://schema' });
      expect(JSON.parse((schema.contents[0] as { text: string }).text)).toHaveProperty(
        'labels.Conversation',
      );
    });
  });
}

let stdioData = '';
exercise('stdio', async () => {
  stdioData = await makeData();
  const client = new Client({ name: 'chatgraph-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--data-dir', stdioData],
      stderr: 'ignore',
    }),
  );
  return client;
});

let server: ChildProcess | undefined;
let url = '';
exercise('streamable HTTP', async () => {
  const data = await makeData();
  server = spawnOwned([CLI, 'mcp', '--http', '0', '--data-dir', data], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server?.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /at (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    server?.on('exit', (code) => {
      reject(new Error(`mcp --http exited with ${String(code)}: ${seen}`));
    });
  });
  const client = new Client({ name: 'chatgraph-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
});

describe('MCP over HTTP refuses other hosts and origins', () => {
  afterAll(
    cleanUp(() => {
      server?.kill();
    }),
  );
  it('refuses a foreign Host or Origin (DNS rebinding)', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const http = await import('node:http');
    const post = (extra: Record<string, string>): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = http.request(
          url,
          { method: 'POST', headers: { ...headers, ...extra } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await post({ host: 'evil.example:80' })).toBe(403);
    expect(await post({ origin: 'http://evil.example' })).toBe(403);
  });
});
