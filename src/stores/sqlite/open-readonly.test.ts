import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { cleanUp } from '../../../test/support/clean-up.js';
import { openDatabase } from '../../at-rest/open-database.js';
import { READ_CACHE_KIB, openReadonly } from './open-readonly.js';

const KEY = 'ab'.repeat(32);

// A small WAL store (the folder's own shape: the -shm file needs a writable folder).
function makeStore(file: string, key: string | undefined): void {
  const db = openDatabase(file, key);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE t (x); INSERT INTO t VALUES (1)`);
  db.close();
}

const cacheOf = (db: ReturnType<typeof openReadonly>): unknown =>
  db.pragma('cache_size', { simple: true });

describe('a connection opened for reading', () => {
  let dir: string;
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(
    cleanUp(() => {
      rmSync(dir, { recursive: true, force: true });
    }),
  );

  it('reads through a larger page cache than SQLite’s 2 MB (issue 46, twelfth pass)', () => {
    const file = join(dir, 'plain.sqlite');
    makeStore(file, undefined);
    const db = openReadonly(file, undefined);
    try {
      expect(cacheOf(db)).toBe(-READ_CACHE_KIB);
      expect(READ_CACHE_KIB).toBeGreaterThan(2000);
      expect(db.prepare('SELECT x FROM t').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });

  it('so does an encrypted store’s, through its key', () => {
    const file = join(dir, 'encrypted.sqlite');
    makeStore(file, KEY);
    const db = openReadonly(file, KEY);
    try {
      expect(cacheOf(db)).toBe(-READ_CACHE_KIB);
      expect(db.prepare('SELECT x FROM t').pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  });
});
