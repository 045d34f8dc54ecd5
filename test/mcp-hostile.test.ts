import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnOwned } from './support/owned-process.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');

/** The stdio MCP server as an agent runs it, read a line (one message) at a time. */
let server: ChildProcessWithoutNullStreams;
let lines: AsyncIterator<string>;

async function next(): Promise<Record<string, unknown>> {
  const line = await lines.next();
  if (line.done) throw new Error(`the server closed its output (exit ${String(server.exitCode)})`);
  return JSON.parse(line.value) as Record<string, unknown>;
}

function write(text: string): void {
  server.stdin.write(text);
}

async function request(
  id: number,
  method: string,
  params: unknown,
): Promise<Record<string, unknown>> {
  write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
  return next();
}

beforeAll(async () => {
  const dir = tempDir();
  const input = join(dir, 'conversations.json');
  writeFileSync(input, JSON.stringify([branchedConversation('conv-a', 'Sourdough starter')]));
  const data = join(dir, 'data');
  await importExports(new Folder(data), [input]);
  server = spawnOwned([
    CLI,
    'mcp',
    '--data-dir',
    data,
    '--query-timeout',
    '3',
    '--query-memory',
    '1024',
  ]);
  lines = createInterface({ input: server.stdout })[Symbol.asyncIterator]();
  const init = await request(1, 'initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'hostile', version: '1' },
  });
  expect(init.result).toBeDefined();
  write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
});

afterAll(
  cleanUp(() => {
    server.kill();
  }),
);

const COUNT = {
  name: 'run_cypher',
  arguments: { query: 'MATCH (c:Conversation) RETURN count(c) AS n' },
};

describe('the stdio MCP server under bad input', () => {
  it('answers a line that is not JSON with a parse error and goes on', async () => {
    write('{"jsonrpc": "2.0", "id": 5, "method": \n');
    const error = await next();
    expect(error).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    const answer = await request(6, 'tools/call', COUNT);
    expect(answer).toMatchObject({ id: 6, result: { structuredContent: { rows: [{ n: 1 }] } } });
  });

  it('answers a message over 10 MB with an error and goes on (it used to exit with code 0)', async () => {
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name: 'run_cypher',
        arguments: { query: `RETURN '${'x'.repeat(11 * 1024 * 1024)}'` },
      },
    });
    write(`${huge}\n`);
    const error = await next();
    expect(error).toMatchObject({
      error: { code: -32600, message: expect.stringContaining('larger than 10 MB') as unknown },
    });
    const answer = await request(8, 'tools/call', COUNT);
    expect(answer).toMatchObject({ id: 8, result: { structuredContent: { rows: [{ n: 1 }] } } });
    expect(server.exitCode).toBeNull();
  });

  it('answers a hidden write with a tool error, and the graph is unchanged', async () => {
    const answer = await request(9, 'tools/call', {
      name: 'run_cypher',
      arguments: {
        query:
          "MATCH (c:Conversation) WHERE c.source <> 'x//' REMOVE c:Conversation SET c:Project RETURN count(c)",
      },
    });
    expect(answer).toMatchObject({ id: 9, result: { isError: true } });
    expect(JSON.stringify(answer)).toContain('writes are refused');
    expect(await request(10, 'tools/call', COUNT)).toMatchObject({
      result: { structuredContent: { rows: [{ n: 1 }] } },
    });
  });

  it('stops a slow query at the deadline with a tool error, and answers others meanwhile', async () => {
    write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 11,
        method: 'tools/call',
        params: {
          name: 'run_cypher',
          arguments: {
            query:
              'UNWIND range(1, 30000) AS a RETURN sum(reduce(s = 0, x IN range(1, 3000) | s + x * a)) AS n',
          },
        },
      })}\n`,
    );
    // Asked after the slow query, answered before it.
    const stats = await request(12, 'tools/call', { name: 'stats', arguments: {} });
    expect(stats).toMatchObject({ id: 12 });
    const slow = await next();
    expect(slow).toMatchObject({
      id: 11,
      result: {
        isError: true,
        content: [
          {
            // In the MCP's words: the tool's limit, set by the server's option (no CLI flag).
            text: "the query ran longer than 3 s and was stopped (run_cypher's time limit on this MCP server, set by the server's query-timeout option when it is started; a narrower query or a LIMIT may fit)",
          },
        ],
      },
    });
  });

  it('refuses a search word of 300,000 characters at once, and answers the next call (issue 41, point 13)', async () => {
    for (const [id, query] of [
      [40, 'a'.repeat(300_000)],
      [41, `${'*'.repeat(300_000)}x`],
      [42, `sourdough ${'b'.repeat(257)}`],
    ] as const) {
      const answer = await request(id, 'tools/call', {
        name: 'search_conversations',
        arguments: { query, mode: 'keyword' },
      });
      expect(answer).toMatchObject({ id, result: { isError: true } });
      expect(JSON.stringify(answer)).toMatch(/at most (256|10,000) characters/);
    }
    const found = await request(43, 'tools/call', {
      name: 'search_conversations',
      arguments: { query: 'second answer', mode: 'keyword' },
    });
    expect(found).toMatchObject({ id: 43 });
    expect(JSON.stringify(found)).toContain('Sourdough starter');
  }, 30_000);
});
