import type { ChildProcess } from 'node:child_process';
import { spawnOwned } from './owned-process.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { importExports } from '../../src/data-folder/import-exports.js';
import { msg, node } from './chatgpt-builder.js';
import { tempDir } from './convert-to-temp.js';
import { CLI } from './run-cli.js';
import { ROOT } from './shared.js';
import { Folder } from '../../src/folder/folder.js';

type Json = Record<string, unknown>;

/** A ChatGPT conversation of one thread, user and assistant taking turns, one message a text. */
export function linearConversation(id: string, title: string, texts: string[]): Json {
  const ids = texts.map((_, i) => `${id}-m${String(i)}`);
  const mapping: Json = { root: node('root', null, ids.slice(0, 1), null) };
  texts.forEach((text, i) => {
    const role = i % 2 === 0 ? 'user' : 'assistant';
    const message = msg(ids[i] ?? '', role, text, 1_700_000_000 + i);
    mapping[ids[i] ?? ''] = node(
      ids[i] ?? '',
      ids[i - 1] ?? 'root',
      ids.slice(i + 1, i + 2),
      message,
    );
  });
  return {
    id,
    conversation_id: id,
    title,
    create_time: 1_700_000_000,
    update_time: 1_700_000_000 + texts.length,
    current_node: ids.at(-1),
    mapping,
  };
}

/** A paragraph of `bytes` characters that says which message it is. */
export function filler(label: string, bytes: number): string {
  return `${label} `.padEnd(bytes, 'lorem ipsum dolor sit amet ');
}

/**
 * A data folder for the MCP tests: a long ChatGPT conversation (60 messages of 3 KB, 180 KB in
 * all: past the 80 KB budget), one with a 200 KB message, a short one, and the Claude sample
 * (another source).
 */
export async function mcpData(): Promise<string> {
  const dir = tempDir();
  const input = join(dir, 'conversations.json');
  const long = Array.from({ length: 60 }, (_, i) => filler(`sourdough step ${String(i)}`, 3000));
  writeFileSync(
    input,
    JSON.stringify([
      linearConversation('conv-long', 'Sourdough diary', long),
      linearConversation('conv-huge', 'Pasted log', [
        'what is in this log?',
        filler('log', 200_000),
      ]),
      linearConversation('conv-short', 'Short chat', ['hello there', 'hi, how can I help?']),
    ]),
  );
  const data = join(dir, 'data');
  await importExports(new Folder(data), [input, join(ROOT, 'samples', 'claude-export.zip')]);
  return data;
}

/** The SDK's client over the built CLI's stdio server. */
export async function stdioClient(data: string, extra: string[] = []): Promise<Client> {
  const client = new Client({ name: 'chatgraph-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--data-dir', data, ...extra],
      stderr: 'ignore',
    }),
  );
  return client;
}

/** The built CLI's streamable HTTP server; resolves once it prints its address. */
export async function startMcpHttp(
  data: string,
  extra: string[] = [],
): Promise<{ server: ChildProcess; url: string }> {
  const server = spawnOwned([CLI, 'mcp', '--http', '0', '--data-dir', data, ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    server.stderr?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /at (http:\/\/\S+)/.exec(seen);
      if (match?.[1]) resolve(match[1]);
    });
    server.once('exit', (code) => {
      reject(new Error(`mcp --http exited with ${String(code)}: ${seen}`));
    });
  });
  return { server, url };
}
