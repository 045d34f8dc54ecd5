import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { checksumOfMemories } from '../src/trust/store-checksum.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { CLI } from './support/run-cli.js';

// Issue 41, point 18: `verify` passed a bundle edited and re-signed with anyone's key. It now
// trusts the keys given (--key, --trusted-keys), your own signing keys by default, and says
// "signed by a key you do not trust" with exit 1 (verdict `untrusted` in --json).
// Issue 41, point 20 (its second half): a memory id `__proto__` made every signature of the
// bundle fail right after signing.

const run = promisify(execFile);
const root = tempDir();
const mine = join(root, 'mine');
const theirs = join(root, 'theirs');

async function cli(
  config: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], {
      env: { ...process.env, XDG_CONFIG_HOME: config },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function publicKey(config: string): Promise<string> {
  const shown = await cli(config, 'key', 'show');
  const key = /public key: (z6Mk\S+)/.exec(shown.stdout)?.[1];
  if (!key) throw new Error(`no public key in ${shown.stdout}${shown.stderr}`);
  return key;
}

let signed: string;

beforeAll(async () => {
  expect((await cli(mine, 'key', 'new')).code).toBe(0);
  expect((await cli(theirs, 'key', 'new')).code).toBe(0);
  const dir = join(root, 'input');
  mkdirSync(dir);
  const input = join(dir, 'conversations.json');
  writeFileSync(input, JSON.stringify([branchedConversation('c-1', 'Quokka plans')]));
  signed = join(root, 'signed');
  expect((await cli(mine, 'import', input, '--data-dir', signed, '-q')).code).toBe(0);
  const remembered = await cli(
    mine,
    'remember',
    'Takes the night train',
    '--type',
    'preference',
    '--data-dir',
    signed,
  );
  expect(remembered.code, remembered.stderr).toBe(0);
  const sign = await cli(mine, 'sign', '--data-dir', signed);
  expect(sign.code, sign.stderr).toBe(0);
}, 180_000);

/** A copy of the signed folder, a conversation edited, signed again by the other key. */
async function forged(): Promise<string> {
  const copy = join(root, `forged-${String(Date.now())}`);
  cpSync(signed, copy, { recursive: true });
  const conversations = join(copy, 'bundle', 'conversations');
  const file = join(conversations, readdirSync(conversations)[0] ?? '');
  writeFileSync(file, readFileSync(file, 'utf8').replace('Quokka plans', 'Wombat plans'));
  const sign = await cli(theirs, 'sign', '--data-dir', copy);
  expect(sign.code, sign.stderr).toBe(0);
  return copy;
}

describe('verify trusts the keys it is given (issue 41, point 18)', () => {
  it('passes a bundle signed by your own key, with no option', async () => {
    const verify = await cli(mine, 'verify', '--data-dir', signed);
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(/signature verified/);
  }, 60_000);

  it('fails a bundle edited and signed again by another key, saying so', async () => {
    const copy = await forged();
    const verify = await cli(mine, 'verify', '--data-dir', copy);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(/signed by a key you do not trust/);
    const json = await cli(mine, 'verify', '--data-dir', copy, '--json');
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as { verdict: string; signer: { trusted: boolean } };
    expect(report.verdict).toBe('untrusted');
    expect(report.signer.trusted).toBe(false);
    // Someone with no signing key of their own trusts no one by default.
    const nobody = await cli(join(root, 'nobody'), 'verify', '--data-dir', copy);
    expect(nobody.code).toBe(1);
  }, 120_000);

  it('passes it when its key is trusted by --key or --trusted-keys, and fails mine then', async () => {
    const copy = await forged();
    const key = await publicKey(theirs);
    expect((await cli(mine, 'verify', '--data-dir', copy, '--key', key)).code).toBe(0);
    expect((await cli(mine, 'verify', '--data-dir', copy, '--key', `did:key:${key}`)).code).toBe(0);
    const file = join(root, 'trusted-keys');
    writeFileSync(file, `# a colleague\n${key}\n`);
    expect((await cli(mine, 'verify', '--data-dir', copy, '--trusted-keys', file)).code).toBe(0);
    // Given keys replace the default: my folder is not signed by theirs.
    const other = await cli(mine, 'verify', '--data-dir', signed, '--key', key);
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(/do not trust/);
    // --key default names my own key, as sign's --key does.
    expect((await cli(mine, 'verify', '--data-dir', signed, '--key', 'default')).code).toBe(0);
  }, 120_000);

  it('names a --trusted-keys line that is not a key', async () => {
    const file = join(root, 'bad-keys');
    writeFileSync(file, 'z6MkGood\nnot a key\n');
    const verify = await cli(mine, 'verify', '--data-dir', signed, '--trusted-keys', file);
    expect(verify.code).toBe(2);
    expect(verify.stderr).toMatch(/line 2: not a public key/);
  }, 60_000);
});

describe('a memory whose id is __proto__ (issue 41, point 20)', () => {
  it('is signed and verified like any other', async () => {
    const copy = join(root, 'proto');
    cpSync(signed, copy, { recursive: true });
    const file = join(copy, 'bundle', 'memory-store.json');
    const store = JSON.parse(readFileSync(file, 'utf8')) as {
      memories: { id: string }[];
      integrity: { checksum: string; total_memories: number };
    };
    const first = store.memories[0];
    if (!first) throw new Error('the folder has no memory');
    store.memories.push({ ...first, id: '__proto__' });
    store.integrity.checksum = checksumOfMemories(store.memories);
    store.integrity.total_memories = store.memories.length;
    writeFileSync(file, JSON.stringify(store, null, 2));
    const sign = await cli(mine, 'sign', '--data-dir', copy);
    expect(sign.code, sign.stderr).toBe(0);
    const verify = await cli(mine, 'verify', '--data-dir', copy);
    expect(verify.stderr).toBe('');
    expect(verify.code).toBe(0);
    expect(verify.stdout).toMatch(/2 memories/);
  }, 120_000);
});
