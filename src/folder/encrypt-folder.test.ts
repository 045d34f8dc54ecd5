import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decryptFolder, encryptFolder } from './encrypt-folder.js';
import { Folder } from './folder.js';

const root = mkdtempSync(join(tmpdir(), 'chatgraph-encrypt-folder-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('one handle encrypting, writing and decrypting a folder (a library caller)', () => {
  it('writes sealed once it encrypted the folder, and plain again once it decrypted it', async () => {
    const dir = join(root, 'folder');
    const unlock = { passphrase: 'library passphrase' };
    const folder = new Folder(dir);
    const file = join(dir, 'bundle', 'note.json');
    const made = await encryptFolder(folder, unlock);
    expect(made.already).toBeUndefined();
    await folder.files.write(file, '{"words":"written sealed"}');
    expect(existsSync(`${file}.age`)).toBe(true);
    expect(existsSync(file)).toBe(false);
    expect(await folder.files.readText(file)).toBe('{"words":"written sealed"}');
    expect((await encryptFolder(folder, unlock, { ifPlain: true })).already).toBe(true);
    // Another handle of the same folder holds no key: it reads nothing sealed until it asks.
    await expect(new Folder(dir).files.readText(file)).rejects.toThrow(/encrypted/);
    await decryptFolder(folder, unlock);
    expect(existsSync(file)).toBe(true);
    // The key is forgotten with the folder's encryption: the handle reads and writes it plain.
    expect(await folder.files.readText(file)).toBe('{"words":"written sealed"}');
    await folder.files.write(file, '{"words":"written plain"}');
    expect(existsSync(`${file}.age`)).toBe(false);
  }, 60_000);
});
