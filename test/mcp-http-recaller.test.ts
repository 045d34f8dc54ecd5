import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DataFolder } from '../src/index.js';
import { serveMcpHttp } from '../src/mcp/serve-http.js';
import { ROOT } from './support/shared.js';

const dir = mkdtempSync(join(tmpdir(), 'chatgraph-mcp-recaller-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('MCP over HTTP', () => {
  // Stateless: a server per request. Each made its own recaller before, never closed, so every
  // search by meaning left a model open.
  it('makes one recaller for the endpoint, shared by every request, closed with it', async () => {
    const folder = await DataFolder.open(dir);
    await folder.import([join(ROOT, 'samples', 'chatgpt-export.zip')]);
    const made = vi.spyOn(folder, 'recaller');
    const endpoint = await serveMcpHttp(folder, 0);
    const recaller: unknown = await made.mock.results[0]?.value;
    if (typeof recaller !== 'object' || recaller === null || !('close' in recaller))
      throw new Error('serveMcpHttp made no recaller');
    const closed = vi.spyOn(recaller as { close(): Promise<void> }, 'close');
    for (let i = 0; i < 2; i++) {
      const client = new Client({ name: 'chatgraph-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      const found = await client.callTool({
        name: 'search_conversations',
        arguments: { query: 'the' },
      });
      expect(found.isError).not.toBe(true);
      await client.close();
    }
    expect(made).toHaveBeenCalledTimes(1);
    expect(closed).not.toHaveBeenCalled();
    await endpoint.close();
    expect(closed).toHaveBeenCalledTimes(1);
    await folder.close();
  });
});
