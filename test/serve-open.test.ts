import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { memoryIo } from '../src/cli/cli-io.js';
import { runCli } from '../src/cli/run-cli.js';
import { tempDir } from './support/convert-to-temp.js';
import { startServe } from './support/serve-cli.js';
import { ROOT } from './support/shared.js';
import type { ChildProcess } from 'node:child_process';

const FIXTURE = join(ROOT, 'test', 'fixtures', 'chatgpt', 'kitchen-forks.json');

let folder: string;
let data: string;
beforeAll(async () => {
  folder = tempDir();
  data = join(folder, 'data');
  const io = memoryIo();
  expect(await runCli(['node', 'chatgraph', 'import', FIXTURE, '--data-dir', data, '-q'], io)).toBe(
    0,
  );
});

let server: ChildProcess | undefined;
afterEach(() => {
  server?.kill('SIGTERM');
  server = undefined;
});

/** A PATH whose `xdg-open` writes the address it was given to `record`, as a browser would open it. */
function standInPath(record: string): string {
  const bin = join(tempDir(), 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\nprintf '%s' "$1" > '${record}'\n`);
  chmodSync(join(bin, 'xdg-open'), 0o755);
  return `${bin}:${process.env.PATH ?? ''}`;
}

async function opened(record: string): Promise<string> {
  for (let waited = 0; waited < 10_000; waited += 50) {
    if (existsSync(record)) return readFileSync(record, 'utf8');
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('xdg-open was never called');
}

describe('serve --open', () => {
  it('opens the browser at the served address once it listens', async () => {
    const record = join(tempDir(), 'opened');
    const env = { ...process.env, PATH: standInPath(record) };
    const started = await startServe(data, env, ['--open']);
    server = started.server;
    expect(started.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await opened(record)).toBe(`${started.base}/`);
  });

  it('opens it when the config file says serve.open = true, and not otherwise', async () => {
    const quiet = join(tempDir(), 'opened');
    const plain = await startServe(data, { ...process.env, PATH: standInPath(quiet) });
    // Time enough for an opener to have run, had it been started.
    await new Promise((r) => setTimeout(r, 500));
    plain.server.kill('SIGTERM');
    const record = join(tempDir(), 'opened');
    const home = tempDir();
    mkdirSync(join(home, 'chatgraph'));
    writeFileSync(join(home, 'chatgraph', 'config.toml'), '[serve]\nopen = true\n');
    const env = { ...process.env, PATH: standInPath(record), XDG_CONFIG_HOME: home };
    const started = await startServe(data, env);
    server = started.server;
    expect(await opened(record)).toBe(`${started.base}/`);
    expect(existsSync(quiet)).toBe(false);
  });
});
