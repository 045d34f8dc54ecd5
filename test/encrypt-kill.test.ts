import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSamples } from './support/bundled-samples.js';
import { CLI, chatgraphWith } from './support/run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'chatgraph-encrypt-kill-'));
const env = { CHATGRAPH_PASSPHRASE: 'a passphrase for the kill test' };
const plain = join(root, 'plain');

beforeAll(() => {
  importSamples(plain);
}, 120_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

function bundleFiles(dir: string): string[] {
  return readdirSync(join(dir, 'bundle'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(join(dir, 'bundle'), join(e.parentPath, e.name)))
    .sort();
}

/** Runs `verb` on `dir` and kills it -9 the moment `marker` (a path in `dir`) appears. */
async function killedAt(verb: string, dir: string, marker: string): Promise<boolean> {
  const child = spawn(process.execPath, [CLI, verb, '--data-dir', dir], {
    env: { ...process.env, ...env },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let killed = false;
  const poll = setInterval(() => {
    if (!killed && existsSync(join(dir, marker))) {
      killed = child.kill('SIGKILL');
    }
  }, 1);
  await exited;
  clearInterval(poll);
  return killed;
}

/** The folder, after the next command opened it, is whole: the plain bundle, or all of it encrypted. */
async function expectWhole(dir: string): Promise<'plain' | 'encrypted'> {
  const list = await chatgraphWith(env, 'list', '--data-dir', dir);
  expect(list.code, list.stderr).toBe(0);
  expect(list.stdout).toContain('Sourdough Starter Not Rising');
  expect(existsSync(join(dir, '.encrypting')) || existsSync(join(dir, '.decrypting'))).toBe(false);
  const state = existsSync(join(dir, 'encryption.json')) ? 'encrypted' : 'plain';
  if (state === 'encrypted') {
    expect(bundleFiles(dir)).toEqual(bundleFiles(plain).map((f) => `${f}.age`));
    const back = await chatgraphWith(env, 'decrypt', '--data-dir', dir);
    expect(back.code, back.stderr).toBe(0);
  }
  expect(bundleFiles(dir)).toEqual(bundleFiles(plain));
  for (const file of bundleFiles(plain))
    expect(
      readFileSync(join(dir, 'bundle', file)).equals(readFileSync(join(plain, 'bundle', file))),
    ).toBe(true);
  return state;
}

describe('a kill -9 in the middle of encrypt or decrypt', () => {
  it.each([
    ['encrypt', 'while it writes the encrypted form', '.encrypting/bundle'],
    ['encrypt', 'once its plan is written', '.encrypting/plan.json'],
    ['decrypt', 'while it writes the plain form', '.decrypting/bundle'],
    ['decrypt', 'once its plan is written', '.decrypting/plan.json'],
  ])(
    '%s killed %s loses nothing',
    async (verb, _when, marker) => {
      const dir = join(root, `${verb}-${marker.replace(/\W/g, '')}`);
      cpSync(plain, dir, { recursive: true });
      if (verb === 'decrypt') {
        const encrypted = await chatgraphWith(env, 'encrypt', '--data-dir', dir);
        expect(encrypted.code, encrypted.stderr).toBe(0);
      }
      // Killed, or finished before the marker was seen: either way the folder must be whole.
      await killedAt(verb, dir, marker);
      await expectWhole(dir);
    },
    120_000,
  );
});
