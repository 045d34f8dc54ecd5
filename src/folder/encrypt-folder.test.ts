import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readDataText, writeDataFile } from '../bundle/sealed-files.js';
import { decryptFolder, encryptFolder } from './encrypt-folder.js';
import { Folder } from './folder.js';

const root = mkdtempSync(join(tmpdir(), 'chatgraph-encrypt-folder-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('one process encrypting, writing and decrypting a folder (a library caller)', () => {
  it('writes sealed once it encrypted the folder, and plain again once it decrypted it', async () => {
    const dir = join(root, 'folder');
    const unlock = { passphrase: 'library passphrase' };
    const file = join(dir, 'bundle', 'note.json');
    const made = await encryptFolder(new Folder(dir), unlock);
    expect(made.already).toBeUndefined();
    await writeDataFile(file, '{"words":"written sealed"}');
    expect(existsSync(`${file}.age`)).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(await readDataText(file)).toBe('{"words":"written sealed"}');
    expect((await encryptFolder(new Folder(dir), unlock, { ifPlain: true })).already).toBe(true);
    await decryptFolder(new Folder(dir), unlock);
    expect(existsSync(file)).toBe(true);
    // The key is forgotten with the folder's encryption: this process reads and writes it plain.
    expect(await readDataText(file)).toBe('{"words":"written sealed"}');
    await writeDataFile(file, '{"words":"written plain"}');
    expect(existsSync(`${file}.age`)).toBe(false);
  }, 60_000);
});
