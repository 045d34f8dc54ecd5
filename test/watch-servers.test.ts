import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { CLI } from './support/run-cli.js';
import { startCli, type WatchProcess } from './support/watch-cli.js';

// A Claude Code home of its own (and a HOME without ~/.claude): what `--watch` follows.
function claudeHome(): { env: NodeJS.ProcessEnv; log: string } {
  const dir = tempDir();
  const projects = join(dir, 'claude', 'projects', '-work-app');
  mkdirSync(projects, { recursive: true });
  const log = join(projects, 'live-1.jsonl');
  writeFileSync(log, line('u1', null, 'user', 'how do I keep the memory current?'));
  const { XDG_CONFIG_HOME: _xdg, ...rest } = process.env;
  return { env: { ...rest, HOME: dir, CLAUDE_CONFIG_DIR: join(dir, 'claude') }, log };
}

function line(uuid: string, parent: string | null, role: string, text: string): string {
  return `${JSON.stringify({
    type: role,
    uuid,
    parentUuid: parent,
    sessionId: 'live-1',
    timestamp: '2026-01-01T10:00:00.000Z',
    message:
      role === 'assistant'
        ? { id: `m-${uuid}`, role, content: [{ type: 'text', text }] }
        : { role, content: text },
  })}\n`;
}

const running: WatchProcess[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop('SIGKILL');
});

describe('servers with --watch', () => {
  it('serve --watch: the API sees a new message without a restart, and its change count moves', async () => {
    const { env, log } = claudeHome();
    const data = tempDir();
    const serve = startCli(['serve', '--watch', '--data-dir', data, '--port', '0'], env);
    running.push(serve);
    const base = (/web app at (http:\/\/\S+?)\/?$/.exec(await serve.waitFor(/web app at /)) ??
      [])[1];
    await serve.waitFor(/^chatgraph watch: following /);
    const changes = async () =>
      ((await (await fetch(`${base}/api/changes`)).json()) as { changes: number }).changes;
    const before = await changes();
    const at = serve.lines.length;
    appendFileSync(log, line('u2', 'u1', 'assistant', 'run chatgraph watch, the capybara way'));
    await serve.waitFor(/^chatgraph watch: imported .*live-1\.jsonl/, at);
    expect(await changes()).toBeGreaterThan(before);
    const hits = (await (await fetch(`${base}/api/search?q=capybara&mode=keyword`)).json()) as {
      hits: { snippet: string }[];
    };
    expect(hits.hits.length).toBe(1);
  }, 60_000);

  it('serve without --watch answers null, so the page does not poll', async () => {
    const { env } = claudeHome();
    const data = tempDir();
    execFileSync(process.execPath, [CLI, 'import', '--data-dir', data, '-q'], { env });
    const serve = startCli(['serve', '--data-dir', data, '--port', '0'], env);
    running.push(serve);
    const base = (/web app at (http:\/\/\S+?)\/?$/.exec(await serve.waitFor(/web app at /)) ??
      [])[1];
    expect(await (await fetch(`${base}/api/changes`)).json()).toEqual({ changes: null });
  }, 60_000);

  it('mcp --watch: a search over MCP finds a line appended after the server started', async () => {
    const { env, log } = claudeHome();
    const data = tempDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--watch', '--data-dir', data],
      env: env as Record<string, string>,
      stderr: 'pipe',
    });
    const stderr: string[] = [];
    let wake: (() => void) | undefined;
    transport.stderr?.on('data', (chunk: Buffer) => {
      stderr.push(chunk.toString());
      wake?.();
    });
    const seen = (pattern: RegExp, from: number) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (pattern.test(stderr.slice(from).join(''))) resolve();
        };
        wake = check;
        check();
      });
    const client = new Client({ name: 'chatgraph-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      await seen(/on stdio/, 0);
      const at = stderr.length;
      appendFileSync(log, line('u2', 'u1', 'assistant', 'the wombat answer arrives live'));
      await seen(/chatgraph watch: imported .*live-1\.jsonl/, at);
      const result = (await client.callTool({
        name: 'search_conversations',
        arguments: { query: 'wombat' },
      })) as { structuredContent?: { conversations: unknown[] } };
      expect(result.structuredContent?.conversations).toHaveLength(1);
    } finally {
      await client.close();
    }
  }, 60_000);
});
