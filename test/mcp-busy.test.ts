import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { ChildPool, type PooledChild } from '../src/stores/sqlite/child-pool.js';
import { errorAnswer } from '../src/web/api-error.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { holdWriteLock } from './support/lock-holder.js';
import { CLI } from './support/run-cli.js';
import { Folder } from '../src/folder/folder.js';

// Issue 41, point 17: a writer holding the data folder makes MCP `remember` wait a bounded time
// and answer clearly (as the web app does), not hang; a tag is bounded in every shell; a search
// refused because too many run at once is "busy, try again" (503 with Retry-After), not a 400.

let data: string;
let client: Client;

beforeAll(async () => {
  const dir = tempDir();
  const input = join(dir, 'conversations.json');
  writeFileSync(input, JSON.stringify([branchedConversation('c-1', 'Quokka plans')]));
  data = join(dir, 'data');
  await importExports(new Folder(data), [input]);
  client = new Client({ name: 'chatgraph-busy-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--data-dir', data],
      env: process.env as Record<string, string>,
      stderr: 'ignore',
    }),
  );
}, 120_000);

afterAll(async () => {
  await client.close();
});

const textOf = (result: unknown): string => JSON.stringify(result);

describe('MCP remember while another writer holds the folder (issue 41, point 17)', () => {
  it('answers after a bounded wait that the folder is busy, and remembers once it is free', async () => {
    const holder = await holdWriteLock(data);
    try {
      const busy = await client.callTool(
        { name: 'remember', arguments: { content: 'Takes the night train', type: 'preference' } },
        undefined,
        { timeout: 30_000 },
      );
      expect(busy.isError).toBe(true);
      expect(textOf(busy)).toMatch(/another chatgraph writer .*is changing the data folder/);
      expect(textOf(busy)).toMatch(/try again/);
    } finally {
      holder.kill('SIGKILL');
    }
    const done = await client.callTool({
      name: 'remember',
      arguments: { content: 'Takes the night train', type: 'preference' },
    });
    expect(done.isError).not.toBe(true);
  }, 60_000);
});

describe('memory tags are bounded (issue 41, point 17)', () => {
  it('refuses a tag of 100,000 characters, naming the bound', async () => {
    const answer = await client.callTool({
      name: 'remember',
      arguments: { content: 'Likes long tags', type: 'preference', tags: ['t'.repeat(100_000)] },
    });
    expect(answer.isError).toBe(true);
    expect(textOf(answer)).toMatch(/at most 64 character/);
    expect(textOf(answer).length).toBeLessThan(24 * 1024);
  });
});

describe('a search refused because too many run at once (issue 41, point 17)', () => {
  it('is busy for the web app: 503 with Retry-After, not a 400', async () => {
    const pool = new ChildPool<PooledChild>(4, 'searches');
    const never = new Promise<never>(() => undefined);
    const spawn = (): PooledChild =>
      ({ process: { exitCode: 0, signalCode: null }, stderr: '' }) as unknown as PooledChild;
    const running = Array.from({ length: 4 }, () => pool.use(spawn, () => never));
    const refused = await pool.use(spawn, () => Promise.resolve('ran')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    const answer = errorAnswer(refused);
    expect(answer?.status).toBe(503);
    expect(answer?.headers?.['Retry-After']).toMatch(/^\d+$/);
    expect(answer?.body.error).toMatch(/running already/);
    expect(running).toHaveLength(4);
  });
});
