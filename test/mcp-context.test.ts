import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { msg, node } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { filler, linearConversation, stdioClient } from './support/mcp-fixtures.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

// MCP for an agent's context (issue 26 §8), through the TypeScript SDK's client (which checks
// each structuredContent against the listed outputSchema itself): what tools/list costs, what
// the initialize result says, one budget for a whole answer, and no blank sections.

type CallResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};

/** A ChatGPT conversation that opens with an empty system message, as exports do. */
function withEmptySystem(): Record<string, unknown> {
  const mapping = {
    root: node('root', null, ['sys'], null),
    sys: node('sys', 'root', ['u'], {
      ...msg('sys', 'system', '', 1_700_000_000, {
        metadata: { is_visually_hidden_from_conversation: true },
      }),
      weight: 0,
    }),
    u: node('u', 'sys', ['a'], msg('u', 'user', 'how long to proof rye bread?', 1_700_000_001)),
    a: node('a', 'u', [], msg('a', 'assistant', 'About three hours at 24 °C.', 1_700_000_002)),
  };
  return {
    id: 'conv-empty',
    conversation_id: 'conv-empty',
    title: 'Rye bread',
    create_time: 1_700_000_000,
    update_time: 1_700_000_002,
    current_node: 'a',
    mapping,
  };
}

let data = '';
const clients: Client[] = [];

beforeAll(async () => {
  const dir = tempDir();
  const input = join(dir, 'conversations.json');
  const long = Array.from({ length: 60 }, (_, i) => filler(`rye step "${String(i)}"`, 3000));
  writeFileSync(
    input,
    JSON.stringify([withEmptySystem(), linearConversation('conv-long', 'Rye diary', long)]),
  );
  data = join(dir, 'data');
  await importExports(new Folder(data), [input]);
}, 120_000);

afterAll(
  cleanUp(async () => {
    for (const client of clients) await client.close();
  }),
);

async function connect(extra: string[] = []): Promise<Client> {
  const client = await stdioClient(data, extra);
  clients.push(client);
  return client;
}

const sentBytes = (result: CallResult): number =>
  Buffer.byteLength(
    JSON.stringify({ content: result.content, structuredContent: result.structuredContent }),
  );

describe("MCP for an agent's context", () => {
  it('lists its tools in under 12 KB, every one with an output schema', async () => {
    const client = await connect();
    const listed = await client.listTools();
    expect(Buffer.byteLength(JSON.stringify(listed))).toBeLessThan(12 * 1024);
    for (const tool of listed.tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
  });

  it('says in the initialize result what it holds and which tool to use when', async () => {
    const client = await connect();
    const instructions = client.getInstructions() ?? '';
    expect(instructions.length).toBeGreaterThan(200);
    expect(instructions.length).toBeLessThanOrEqual(1200);
    expect(instructions).toContain('2 conversations from ChatGPT');
    expect(instructions).toMatch(/not embedded/);
    for (const tool of ['search_conversations', 'get_conversation', 'run_cypher', 'remember'])
      expect(instructions).toContain(tool);
    expect(instructions).toMatch(/24 KB/);
  });

  it('leaves empty messages out of get_conversation, text and structured content', async () => {
    const client = await connect();
    // The hidden system message is on the tree (branch all), not on the thread the user saw.
    for (const branch of ['shown', 'all']) {
      const result = (await client.callTool({
        name: 'get_conversation',
        arguments: { id: 'conv-empty', branch },
      })) as CallResult;
      const text = result.content.map((c) => c.text).join('\n');
      expect(text).toContain('how long to proof rye bread?');
      expect(text, branch).not.toMatch(/## system/);
      expect(text, branch).not.toMatch(/\n\n\n/);
      const messages = result.structuredContent?.messages as { role: string }[];
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    }
  });

  it('keeps a whole answer within --answer-budget, text and structured content together', async () => {
    const client = await connect(['--answer-budget', '10000']);
    expect(client.getInstructions()).toMatch(/9\.8 KB/);
    const page = (await client.callTool({
      name: 'get_conversation',
      arguments: { id: 'conv-long', limit: 200 },
    })) as CallResult;
    expect(sentBytes(page)).toBeLessThanOrEqual(10_000);
    expect(page.structuredContent).toMatchObject({ truncated: true });
    const next = page.structuredContent?.nextOffset as number;
    expect(page.content[0]?.text).toContain(`call again with offset ${String(next)}`);
    // Rows full of quotes: each is two bytes once sent as JSON, and counted so.
    const rows = (await client.callTool({
      name: 'run_cypher',
      arguments: { query: 'MATCH (m:Message) RETURN m.id, m.content' },
    })) as CallResult;
    expect(sentBytes(rows)).toBeLessThanOrEqual(10_000);
    expect(rows.structuredContent).toMatchObject({ truncated: true });
    expect(rows.content[0]?.text).toMatch(/SKIP \d+ LIMIT \d+/);
  });
});
