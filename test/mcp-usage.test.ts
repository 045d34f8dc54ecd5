// The MCP `usage` tool, asked by the official SDK's client over stdio of the built CLI, as an
// agent would ask "how much did I spend on Codex this month".
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { cleanUp } from './support/clean-up.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { Folder } from '../src/folder/folder.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const fixture = (...parts: string[]): string => join(ROOT, 'test', 'fixtures', ...parts);

type CallResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};

let client: Client;

beforeAll(async () => {
  const data = join(tempDir(), 'data');
  await importExports(new Folder(data), [
    fixture('codex', 'rollout-2025-10-29T09-12-04-019a2f3d-1704-7a1b-8c1d-2e3f4a5b6c7d.jsonl'),
    fixture('claude-code', 'notes-second-session.jsonl'),
    fixture('chatgpt', 'kitchen-forks.json'),
  ]);
  client = new Client({ name: 'usage-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--data-dir', data],
      env: { ...process.env, TZ: 'UTC', XDG_CONFIG_HOME: tempDir() },
      stderr: 'ignore',
    }),
  );
}, 120_000);

afterAll(
  cleanUp(async () => {
    await client.close();
  }),
);

const call = async (args: Record<string, unknown>): Promise<CallResult> =>
  (await client.callTool({ name: 'usage', arguments: args })) as CallResult;

describe('the MCP usage tool', () => {
  it('is listed, read-only, with its input', async () => {
    const { tools } = await client.listTools();
    const usage = tools.find((t) => t.name === 'usage');
    expect(usage?.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys(usage?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['by', 'source', 'since', 'until', 'breakdown']),
    );
  });

  it('answers what Codex cost in a month, counted and priced', async () => {
    const answer = await call({ source: 'codex', since: '2025-10-01', until: '2025-11-01' });
    expect(answer.isError).toBeFalsy();
    const total = answer.structuredContent?.total as Record<string, number | null>;
    // By hand: three calls, input less cached reads; gpt-5-codex and gpt-5.1-codex at $1.25
    // in, $10 out, $0.125 cache reads per million.
    expect(total).toMatchObject({
      input_tokens: 14000,
      output_tokens: 640,
      cache_read_tokens: 17000,
      reasoning_tokens: 300,
    });
    expect(total.cost_usd).toBeCloseTo((14000 * 1.25 + 640 * 10 + 17000 * 0.125) / 1e6, 6);
    const text = answer.content[0]?.text ?? '';
    expect(text).toContain('- 2025-10: 14,000 in, 640 out');
    expect(text).toContain('Prices of ');
    // The month before holds nothing of Codex.
    const before = await call({ source: 'codex', until: '2025-10-01' });
    expect(before.content[0]?.text).toContain('No token counts match.');
  });

  it('names what has no token counts, and a wrong time zone as an error', async () => {
    const all = await call({ by: 'source' });
    expect(all.content[0]?.text).toMatch(/No token counts in chatgpt \(1 of 1 conversations/);
    expect(all.content[0]?.text).not.toContain('(estimated)');
    const wrong = await call({ timeZone: 'Mars/Olympus' });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]?.text).toContain('no such time zone');
  });

  it('estimates chat exports from text when asked, apart from the counted total', async () => {
    const counted = await call({ by: 'source' });
    const estimated = await call({ by: 'source', estimate: true });
    expect(estimated.isError).toBeFalsy();
    expect(estimated.structuredContent?.total).toEqual(counted.structuredContent?.total);
    const text = estimated.content[0]?.text ?? '';
    expect(text).toMatch(/^- chatgpt \(estimated\): [\d,]+ in, [\d,]+ out/m);
    expect(text).toContain('Estimated, not in the total: ');
    expect(text).toContain('estimated from text length, not counted');
  });
});
