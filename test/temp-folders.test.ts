import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { spawnOwned } from './support/owned-process.js';
import { CLI, chatgraphWith } from './support/run-cli.js';
import { startServe } from './support/serve-cli.js';

// Issue 41, point 11: the temporary copies chatgraph makes (an `export --from`'s throwaway data
// folder, with a plain index of everything it read; a web upload) are removed on Ctrl-C and
// SIGTERM, and one left by a kill -9 is swept by the next run. Each test has its own TMPDIR.

let big: string;
let small: string;
let data: string;
beforeAll(async () => {
  const dir = tempDir();
  big = join(dir, 'export.zip');
  await writeChatgptExport(big, { seed: 5, conversations: 1500 });
  small = join(dir, 'conversations.json');
  writeFileSync(small, JSON.stringify([branchedConversation('c-1', 'Quokka plans')]));
  data = join(dir, 'data');
  const imported = await chatgraphWith({}, 'import', small, '--data-dir', data, '-q');
  expect(imported.code, imported.stderr).toBe(0);
}, 180_000);

const ours = (tmp: string): string[] =>
  readdirSync(tmp).filter((name) => /^chatgraph-(export|upload|zip)-/.test(name));

async function until(check: () => boolean, what: string): Promise<void> {
  for (let n = 0; n < 600; n++) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`waited 30 s for ${what}`);
}

function exportFrom(tmp: string, input: string, out: string): ChildProcess {
  return spawnOwned([CLI, 'export', '--from', input, '--format', 'markdown', '--out', out], {
    stdio: 'ignore',
    env: { ...process.env, TMPDIR: tmp },
  });
}

describe('export --from’s throwaway data folder (issue 41, point 11)', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`is removed when the export is stopped with ${signal}`, async () => {
      const tmp = tempDir();
      const child = exportFrom(tmp, big, join(tempDir(), 'out'));
      await until(() => ours(tmp).length > 0, 'the export’s temporary folder');
      child.kill(signal);
      const [, ended] = (await once(child, 'exit')) as [number | null, string | null];
      expect(ended).toBe(signal);
      expect(ours(tmp)).toEqual([]);
    }, 120_000);
  }

  it('left by a kill -9, is swept by the next export', async () => {
    const tmp = tempDir();
    const child = exportFrom(tmp, big, join(tempDir(), 'out'));
    await until(() => ours(tmp).length > 0, 'the export’s temporary folder');
    child.kill('SIGKILL');
    await once(child, 'exit');
    const left = ours(tmp);
    expect(left).toHaveLength(1);
    const next = exportFrom(tmp, small, join(tempDir(), 'out'));
    const [code] = (await once(next, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(ours(tmp)).toEqual([]);
  }, 120_000);
});

// An upload that goes on sending a byte now and then (its pace kept), until stopped.
function slowUpload(base: string): { stop: () => void } {
  const { hostname, port } = new URL(base);
  const req = request({
    host: hostname,
    port,
    path: '/api/import',
    method: 'POST',
    headers: { 'X-File-Name': 'conversations.json', 'Content-Length': '1000000' },
  });
  req.on('error', () => undefined);
  req.write('[');
  const timer = setInterval(() => req.write(' '), 100);
  return {
    stop: () => {
      clearInterval(timer);
      req.destroy();
    },
  };
}

describe('a web upload’s temporary folder (issue 41, point 11)', () => {
  it('is removed when the server is stopped with SIGTERM', async () => {
    const tmp = tempDir();
    const { server, base } = await startServe(data, { ...process.env, TMPDIR: tmp });
    const upload = slowUpload(base);
    try {
      await until(() => ours(tmp).length > 0, 'the upload’s temporary folder');
      server.kill('SIGTERM');
      upload.stop();
      await once(server, 'exit');
      expect(ours(tmp)).toEqual([]);
    } finally {
      upload.stop();
      server.kill('SIGKILL');
    }
  }, 120_000);

  it('left by a server killed with kill -9, is swept when a server starts', async () => {
    const tmp = tempDir();
    const first = await startServe(data, { ...process.env, TMPDIR: tmp });
    const upload = slowUpload(first.base);
    try {
      await until(() => ours(tmp).length > 0, 'the upload’s temporary folder');
      first.server.kill('SIGKILL');
      await once(first.server, 'exit');
    } finally {
      upload.stop();
    }
    expect(ours(tmp)).toHaveLength(1);
    mkdirSync(join(tmp, 'not-ours'));
    const second = await startServe(data, { ...process.env, TMPDIR: tmp });
    try {
      expect(ours(tmp)).toEqual([]);
      expect(readdirSync(tmp)).toContain('not-ours');
    } finally {
      second.server.kill('SIGKILL');
    }
  }, 120_000);
});
