import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpData, startMcpHttp } from './support/mcp-fixtures.js';
import { CLI } from './support/run-cli.js';
import { provisioned } from './support/provisioned.js';
import { ROOT } from './support/shared.js';
import { cleanUp } from './support/clean-up.js';

// The official Python MCP SDK (`pip install mcp==1.30.0`, protocol 2025-11-25 like the JS SDK's
// 1.32.2), in the venv `npm run provision` makes: a second client nobody here wrote, over stdio and over
// streamable HTTP, calling every tool and checking each result against its outputSchema.
const PYTHON = provisioned('.venv-mcp', 'bin', 'python');
const SCRIPT = join(ROOT, 'test', 'python', 'mcp_client_check.py');

function runScript(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, [SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, output });
    });
  });
}

// The sizes the script measured (tools/list, instructions, each answer), for the log.
function sizes(output: string): string {
  return output
    .split('\n')
    .filter((line) => line.startsWith('size '))
    .join('\n');
}

function summary(output: string): { ok: number; failed: number } {
  const match = /python-mcp checks: ok=(\d+) failed=(\d+)/.exec(output);
  if (!match) throw new Error(`the script ended without its summary:\n${output}`);
  return { ok: Number(match[1]), failed: Number(match[2]) };
}

describe('the official Python MCP SDK as a client', () => {
  let data = '';
  let server: ChildProcess | undefined;
  beforeAll(async () => {
    data = await mcpData();
  }, 120_000);
  afterAll(
    cleanUp(() => {
      server?.kill();
    }),
  );

  it('calls every tool over stdio, each result matching its outputSchema', async () => {
    const { code, output } = await runScript(['stdio', process.execPath, CLI, data]);
    console.log(sizes(output));
    expect(output).not.toMatch(/^FAIL/m);
    expect(summary(output).failed, output).toBe(0);
    expect(summary(output).ok).toBeGreaterThan(40);
    expect(code, output).toBe(0);
  }, 120_000);

  it('calls every tool over streamable HTTP, each result matching its outputSchema', async () => {
    const started = await startMcpHttp(data);
    server = started.server;
    const { code, output } = await runScript(['http', started.url]);
    expect(output).not.toMatch(/^FAIL/m);
    expect(summary(output).failed, output).toBe(0);
    expect(summary(output).ok).toBeGreaterThan(40);
    expect(code, output).toBe(0);
  }, 120_000);
});
