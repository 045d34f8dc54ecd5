import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { decryptFolder, encryptFolder } from '../src/folder/encrypt-folder.js';
import { tempDir } from './support/convert-to-temp.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { filesOf } from './support/encrypted-folder.js';
import { Folder } from '../src/folder/folder.js';

// Issue 41, points 4 and 15: the folder's own databases are named, not recognised by their
// bytes. An attachment that is a SQLite file (or starts like one) is sealed like any other
// file; a stray file dropped into an encrypted folder (.DS_Store, desktop.ini, a swap file, an
// export) is left as it is by decrypt, not taken for a database.

const unlock = { passphrase: 'hostile input passphrase' };

async function folderWithStore(dir: string): Promise<string> {
  const input = join(dir, 'conversations.json');
  writeFileSync(input, JSON.stringify([branchedConversation('c-1', 'Quokka plans')]));
  const data = join(dir, 'data');
  await importExports(new Folder(data), [input]);
  expect(existsSync(join(data, 'chatgraph.sqlite'))).toBe(true);
  return data;
}

function sqliteFile(path: string): void {
  const db = new Database(path);
  db.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('a table of someone else')");
  db.close();
}

describe('encrypt and decrypt name the folder’s databases (issue 41, point 4)', () => {
  it('seals an attachment that is a SQLite file, or only starts like one, and gives both back', async () => {
    const dir = tempDir();
    const data = await folderWithStore(dir);
    const attachments = join(data, 'bundle', 'attachments');
    mkdirSync(attachments, { recursive: true });
    const db = join(attachments, 'file-Db1-budget.sqlite');
    sqliteFile(db);
    const header = join(attachments, 'file-Hd1-header.bin');
    writeFileSync(header, Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(84)]));
    const before = { db: readFileSync(db), header: readFileSync(header) };

    const encrypted = await encryptFolder(new Folder(data), unlock);
    expect(encrypted.sqlite.sort()).toEqual(['chatgraph.sqlite']);
    expect(existsSync(`${db}.age`)).toBe(true);
    expect(existsSync(`${header}.age`)).toBe(true);
    expect(existsSync(db) || existsSync(header)).toBe(false);

    await decryptFolder(new Folder(data), unlock);
    expect(readFileSync(db)).toEqual(before.db);
    expect(readFileSync(header)).toEqual(before.header);
  }, 60_000);

  it('names the file when one of its own databases cannot be encrypted', async () => {
    const dir = tempDir();
    const data = await folderWithStore(dir);
    // The vector cache, damaged: it starts as SQLite does, and is nothing more.
    writeFileSync(
      join(data, 'vectors-cache.sqlite'),
      Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(84, 7)]),
    );
    await expect(encryptFolder(new Folder(data), unlock)).rejects.toThrow(/vectors-cache\.sqlite/);
  }, 60_000);
});

describe('decrypt leaves a stray file as it is (issue 41, point 15)', () => {
  it('decrypts a folder holding .DS_Store, desktop.ini, a swap file and an export', async () => {
    const dir = tempDir();
    const data = await folderWithStore(dir);
    await encryptFolder(new Folder(data), unlock);
    const strays = {
      '.DS_Store': 'Bud1 finder bytes',
      'desktop.ini': '[.ShellClassInfo]\r\n',
      'bundle/.memory-store.json.swp': 'b0VIM 9.0 swap',
      'notes/Quokka plans.md': '# Quokka plans\n',
    };
    for (const [path, text] of Object.entries(strays)) {
      mkdirSync(join(data, path, '..'), { recursive: true });
      writeFileSync(join(data, path), text);
    }
    const report = await decryptFolder(new Folder(data), unlock);
    expect(report.sqlite).toEqual(['chatgraph.sqlite']);
    for (const [path, text] of Object.entries(strays))
      expect(readFileSync(join(data, path), 'utf8')).toBe(text);
    expect(filesOf(data).filter((f) => f.endsWith('.age'))).toEqual([]);
    expect(existsSync(join(data, 'bundle', 'memory-store.json'))).toBe(true);
  }, 60_000);
});
