import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { CLI } from './support/run-cli.js';
import { Folder } from '../src/folder/folder.js';

// Issue 41, point 14: a FIFO, or a link to /dev/zero, in a bundle hangs nothing: verify,
// validate and reindex read regular files only (with a size bound), and name what is not one.

const run = promisify(execFile);
let config: string;

async function cli(...args: string[]): Promise<{ code: number; out: string; killed: boolean }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: config },
      timeout: 60_000,
    });
    return { code: 0, out: `${stdout}${stderr}`, killed: false };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string; killed: boolean };
    return { code: e.code, out: `${e.stdout}${e.stderr}`, killed: e.killed };
  }
}

async function hostileFolder(): Promise<string> {
  const dir = tempDir();
  const input = join(dir, 'conversations.json');
  writeFileSync(input, JSON.stringify([branchedConversation('c-1', 'Quokka plans')]));
  const data = join(dir, 'data');
  await importExports(new Folder(data), [input]);
  expect((await cli('sign', '--data-dir', data)).code).toBe(0);
  const bundle = join(data, 'bundle');
  execFileSync('mkfifo', [join(bundle, 'conversations', 'fifo.json')]);
  mkdirSync(join(bundle, 'attachments'), { recursive: true });
  symlinkSync('/dev/zero', join(bundle, 'attachments', 'zero.bin'));
  symlinkSync('/dev/zero', join(bundle, 'conversations', 'zero.json'));
  return data;
}

beforeAll(async () => {
  config = join(tempDir(), 'config');
  expect((await cli('key', 'new')).code).toBe(0);
}, 60_000);

describe('a bundle holding a FIFO and links to /dev/zero (issue 41, point 14)', () => {
  it('verify finishes and names them, a signed file become a FIFO too', async () => {
    const data = await hostileFolder();
    const conversations = join(data, 'bundle', 'conversations');
    const signed = readdirSync(conversations).find((f) => /^[0-9a-f-]{36}\.json$/.test(f)) ?? '';
    rmSync(join(conversations, signed));
    execFileSync('mkfifo', [join(conversations, signed)]);
    const verify = await cli('verify', '--data-dir', data);
    expect(verify.killed).toBe(false);
    expect(verify.code).toBe(1);
    expect(verify.out).toMatch(/fifo\.json/);
    expect(verify.out).toMatch(/zero\.bin/);
    expect(verify.out).toContain(signed);
  }, 120_000);

  it('validate finishes and names them', async () => {
    const data = await hostileFolder();
    const validate = await cli('validate', join(data, 'bundle'));
    expect(validate.killed).toBe(false);
    expect(validate.code).not.toBe(0);
    expect(validate.out).toMatch(/fifo\.json.*not a regular file|FIFO/);
  }, 120_000);

  it('reindex finishes, indexes the conversation, and names what it left out', async () => {
    const data = await hostileFolder();
    const reindex = await cli('reindex', '--data-dir', data);
    expect(reindex.killed).toBe(false);
    expect(reindex.out).toMatch(/fifo\.json/);
    expect(reindex.out).toMatch(/zero\.json/);
    const list = await cli('list', '--data-dir', data, '--json');
    expect(list.out).toContain('Quokka plans');
  }, 120_000);
});
