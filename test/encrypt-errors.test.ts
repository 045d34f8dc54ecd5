import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openFolderKey } from '../src/at-rest/folder-key.js';
import { readSecret } from '../src/cli/folder-secret.js';
import { DataFolder } from '../src/data-folder/data-folder.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { decryptFolder, encryptFolder } from '../src/folder/encrypt-folder.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { CLI, chatgraph } from './support/run-cli.js';
import { Folder } from '../src/folder/folder.js';
import { layoutOf } from '../src/folder/layout.js';

// Issue 41, points 7 and 21: each error of encryption at rest names its real cause, and none
// prints a secret.

const PASSPHRASE = 'errors passphrase';

async function plainFolder(): Promise<string> {
  const dir = tempDir();
  const input = join(dir, 'conversations.json');
  writeFileSync(input, JSON.stringify([branchedConversation('c-1', 'Quokka plans')]));
  const data = join(dir, 'data');
  await importExports(new Folder(data), [input]);
  return data;
}

function ageKeygen(file: string): string {
  execFileSync('age-keygen', ['-o', file], { stdio: 'ignore' });
  const line = readFileSync(file, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('AGE-SECRET-KEY-1'));
  if (line === undefined) throw new Error('age-keygen wrote no key');
  return line;
}

describe('an identity file with a typo (issue 41, point 7)', () => {
  it('is refused without printing the key, by encrypt and by a reader', async () => {
    const data = await plainFolder();
    const file = join(tempDir(), 'me.txt');
    const key = ageKeygen(file);
    // One character changed: the checksum no longer matches.
    const at = key.length - 5;
    const typo = `${key.slice(0, at)}${key[at] === 'Q' ? 'P' : 'Q'}${key.slice(at + 1)}`;
    const typoFile = join(tempDir(), 'typo.txt');
    writeFileSync(typoFile, `# created: today\n${typo}\n`);
    const body = typo.slice('AGE-SECRET-KEY-1'.length, 40);

    const refused = await encryptFolder(new Folder(data), {
      identity: readFileSync(typoFile, 'utf8'),
    }).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(refused).toMatch(/identity/);
    expect(refused).not.toContain(body);

    const cli = await chatgraph('encrypt', '--identity', typoFile, '--data-dir', data);
    expect(cli.code).toBe(2);
    expect(`${cli.stdout}${cli.stderr}`).not.toContain(body);
    expect(cli.stderr).toMatch(/typo\.txt|identity/);

    await encryptFolder(new Folder(data), { identity: readFileSync(file, 'utf8') });
    const reader = await openFolderKey(layoutOf(data), {
      identity: readFileSync(typoFile, 'utf8'),
    }).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(reader).toMatch(/identity/);
    expect(reader).not.toContain(body);
  }, 120_000);
});

describe('encryption errors name their real cause (issue 41, point 21)', () => {
  it('a damaged key.age is said damaged, not a wrong passphrase', async () => {
    const data = await plainFolder();
    await encryptFolder(new Folder(data), { passphrase: PASSPHRASE });
    writeFileSync(join(data, 'key.age'), readFileSync(join(data, 'key.age')).subarray(0, 60));
    await expect(openFolderKey(layoutOf(data), { passphrase: PASSPHRASE })).rejects.toThrow(
      /key\.age.*damaged/,
    );
  }, 120_000);

  it('a missing key.age is named, not a raw ENOENT, by a reader and by decrypt', async () => {
    const data = await plainFolder();
    await encryptFolder(new Folder(data), { passphrase: PASSPHRASE });
    rmSync(join(data, 'key.age'));
    await expect(openFolderKey(layoutOf(data), { passphrase: PASSPHRASE })).rejects.toThrow(
      /key\.age.*missing/,
    );
    await expect(decryptFolder(new Folder(data), { passphrase: PASSPHRASE })).rejects.toThrow(
      /key\.age.*missing/,
    );
  }, 120_000);

  it('a folder given as the passphrase or identity file is named as one', async () => {
    const folder = tempDir();
    mkdirSync(join(folder, 'secrets'));
    await expect(readSecret({ passphraseFile: join(folder, 'secrets') })).rejects.toThrow(
      /secrets.*is a folder/,
    );
    await expect(readSecret({ identity: join(folder, 'secrets') })).rejects.toThrow(
      /secrets.*is a folder/,
    );
    await expect(readSecret({ identity: join(folder, 'none.txt') })).rejects.toThrow(
      /none\.txt.*no such file/,
    );
  });

  it('a passphrase on a folder encrypted to an identity says to give the identity', async () => {
    const data = await plainFolder();
    const file = join(tempDir(), 'me.txt');
    ageKeygen(file);
    await encryptFolder(new Folder(data), { identity: readFileSync(file, 'utf8') });
    await expect(openFolderKey(layoutOf(data), { passphrase: PASSPHRASE })).rejects.toThrow(
      /encrypted to an age identity.*--identity/,
    );
  }, 120_000);

  it('a missing store names reindex when the bundle is there', async () => {
    const data = await plainFolder();
    rmSync(join(data, 'chatgraph.sqlite'));
    await expect(new Folder(data).openStore({ readonly: true })).rejects.toThrow(
      /chatgraph reindex/,
    );
  }, 60_000);

  it('a reader that finds its folder encrypted under it says so, not that the store is damaged', async () => {
    const data = await plainFolder();
    const folder = await DataFolder.open(data, { readonly: true });
    try {
      // Another process encrypts the folder while this one has it open (a server, say).
      execFileSync(process.execPath, [CLI, 'encrypt', '--data-dir', data], {
        env: { ...process.env, CHATGRAPH_PASSPHRASE: PASSPHRASE },
        stdio: 'ignore',
      });
      const said = await folder.search({ text: 'hello' }).then(
        () => 'answered',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      );
      expect(said).not.toMatch(/store \S+ is damaged|reindex/);
      expect(said).toMatch(/was encrypted after this process opened it/);
    } finally {
      await folder.close();
    }
  }, 120_000);
});
