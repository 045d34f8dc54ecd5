// Back to the source (issue 28, item 6): each conversation knows where it lives on its platform,
// and `thread`, MCP's get_conversation and the web API say it, with each message's sources.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addressOf, keptAddress } from '../src/providers/platform-url.js';
import { tempDir } from './support/convert-to-temp.js';
import { stdioClient } from './support/mcp-fixtures.js';
import { ROOT } from './support/shared.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);
const FIXTURE = join(ROOT, 'test', 'fixtures', 'chatgpt', 'citations-2026.json');
const BISTRO = 'c1t0aa11-2026-4c1e-9e2f-5a1b2c3d4e5f';
const ADDRESS = `https://chatgpt.com/c/${BISTRO}`;
// A thread whose address only its export's metadata gives: MCP reads it from the stored graph.
const THREAD = join(ROOT, 'test', 'fixtures', 'perplexity', 'heat-pump-thread.json');
const THREAD_ADDRESS = 'https://www.perplexity.ai/search/heat-pump-for-a-1970s-bungalow-Jq3xT9';

let data = '';
let client: Client | undefined;

beforeAll(async () => {
  data = join(tempDir(), 'data');
  await run(process.execPath, [CLI, 'import', FIXTURE, THREAD, '--data-dir', data, '-q']);
  client = await stdioClient(data);
}, 60_000);

afterAll(async () => {
  await client?.close();
});

describe('the platform address', () => {
  it('is built only from a plain id the export gave, and kept only when https', () => {
    expect(addressOf('https://claude.ai/chat/', 'e7c1c0aa-0001')).toBe(
      'https://claude.ai/chat/e7c1c0aa-0001',
    );
    expect(addressOf('https://chatgpt.com/c/', 'anonymous-5f1c2d3e4a5b')).toBeUndefined();
    expect(addressOf('https://chatgpt.com/c/', '../../evil?x=1')).toBeUndefined();
    const hosts = ['perplexity.ai'];
    expect(keptAddress({ platform_url: 'https://www.perplexity.ai/search/x-1' }, hosts)).toBe(
      'https://www.perplexity.ai/search/x-1',
    );
    expect(keptAddress({ platform_url: 'javascript:alert(1)' }, hosts)).toBeUndefined();
    expect(keptAddress({ platform_url: 'not a url' }, hosts)).toBeUndefined();
  });

  // Issue 41, point 19: a bundle may carry any address; the platform's link leads to it only.
  it('is kept only on the platform’s own hosts, and as the URL parser writes it', () => {
    const hosts = ['perplexity.ai'];
    for (const foreign of [
      'https://evil.example/search/x',
      'https://perplexity.ai.evil.example/x',
      'https://evilperplexity.ai/x',
      'https://user:pw@www.perplexity.ai/x',
      'http://www.perplexity.ai/search/x',
    ])
      expect(keptAddress({ platform_url: foreign }, hosts), foreign).toBeUndefined();
    expect(keptAddress({ platform_url: 'https://perplexity.ai/search/a' }, hosts)).toBe(
      'https://perplexity.ai/search/a',
    );
    const kept = keptAddress(
      { platform_url: 'https://www.perplexity.ai/search/a\n# Heading <b>x</b> )' },
      hosts,
    );
    expect(kept).toBeDefined();
    expect(kept).not.toMatch(/[\s<>]/);
  });

  it('is a Conversation property Cypher reads', async () => {
    const { stdout } = await run(process.execPath, [
      CLI,
      'query',
      'MATCH (c:Conversation) RETURN c.url AS url',
      '--data-dir',
      data,
      '--json',
    ]);
    expect(stdout).toContain(ADDRESS);
  });

  it('heads the thread, and each message lists its sources as its [n] markers number them', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'thread', BISTRO, '--data-dir', data]);
    expect(stdout.split('\n').slice(0, 3).join('\n')).toContain(ADDRESS);
    expect(stdout).toContain('Sources:');
    expect(stdout).toContain(
      '[1] Le Comptoir du Relais: how to get a table — https://www.example-guide.fr/paris/comptoir?lang=en',
    );
    expect(stdout).toContain('[4] paris-budget.xlsx\n');
    const json = z
      .object({
        url: z.string(),
        messages: z.array(
          z.object({ citations: z.array(z.object({ url: z.string().nullable() })) }),
        ),
      })
      .parse(
        JSON.parse(
          (await run(process.execPath, [CLI, 'thread', BISTRO, '--data-dir', data, '--json']))
            .stdout,
        ),
      );
    expect(json.url).toBe(ADDRESS);
    expect(json.messages.flatMap((m) => m.citations.map((c) => c.url))).toContain(
      'https://museum.example.org/mondays',
    );
  });

  it("is in MCP's get_conversation, with the sources under their message", async () => {
    if (!client) throw new Error('no MCP client');
    const answer = await client.callTool({ name: 'get_conversation', arguments: { id: BISTRO } });
    const parsed = z
      .object({
        content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
        structuredContent: z.object({ url: z.string().nullable() }),
      })
      .parse(answer);
    expect(parsed.structuredContent.url).toBe(ADDRESS);
    const text = parsed.content[0]?.text ?? '';
    expect(text).toContain(`On the platform: <${ADDRESS}>`);
    expect(text).toContain('1. Opening hours <https://museum.example.org/hours>');
  });

  it("is in MCP's list and search answers, in the text and the structured content", async () => {
    if (!client) throw new Error('no MCP client');
    const Answer = z.object({
      content: z.array(z.object({ type: z.literal('text'), text: z.string() })),
      structuredContent: z.object({
        conversations: z.array(z.object({ url: z.string().optional() })),
      }),
    });
    const asked = [
      ['list_conversations', { source: 'chatgpt' }, ADDRESS],
      ['list_conversations', { source: 'perplexity' }, THREAD_ADDRESS],
      ['search_conversations', { query: 'bistro', mode: 'keyword' }, ADDRESS],
      ['search_conversations', { query: 'heat pump', mode: 'keyword' }, THREAD_ADDRESS],
    ] as const;
    for (const [name, args, address] of asked) {
      const answer = Answer.parse(await client.callTool({ name, arguments: args }));
      expect({ name, urls: answer.structuredContent.conversations.map((c) => c.url) }).toEqual({
        name,
        urls: [address],
      });
      expect(answer.content[0]?.text).toContain(`on the platform <${address}>`);
    }
  });
});
