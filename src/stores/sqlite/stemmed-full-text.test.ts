import Database from 'better-sqlite3-multiple-ciphers';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../../folder/layout.js';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { stemBatches } from '../../../test/support/search-fixtures.js';
import { SqliteStore } from './sqlite-store.js';
import { STEMS_TABLE } from './stemmed-full-text.js';
import { Folder } from '../../folder/folder.js';

// A store as a version before stemming left it: everything but the stemmed table.
async function olderStore(dataDir: string): Promise<string> {
  const file = layoutOf(dataDir).store;
  const store = SqliteStore.open(file);
  await store.upsert(stemBatches());
  await store.close();
  const db = new Database(file);
  db.exec(`DROP TABLE ${STEMS_TABLE}`);
  db.close();
  return file;
}

const owners = async (store: { search: SqliteStore['search'] }, text: string) =>
  [...new Set((await store.search({ text })).hits.map((h) => h.conversationId))].sort();

describe('the stemmed index of an older store', () => {
  it('is made and filled in place when the store is opened to be read', async () => {
    const dataDir = tempDir();
    const file = await olderStore(dataDir);
    expect(SqliteStore.needsUpgrade(file)).toBe(true);
    const store = await new Folder(dataDir).openStore({ readonly: true });
    try {
      expect(await owners(store, 'panneau')).toEqual(['st-fr']);
      expect(await owners(store, 'Wohnung')).toEqual(['st-de']);
    } finally {
      await store.close();
    }
    expect(SqliteStore.needsUpgrade(file)).toBe(false);
  });

  it('holds what an import would have written', async () => {
    const dataDir = tempDir();
    const file = await olderStore(dataDir);
    const upgraded = await new Folder(dataDir).openStore();
    await upgraded.close();
    const fresh = SqliteStore.open(join(tempDir(), 'fresh.sqlite'));
    await fresh.upsert(stemBatches());
    await fresh.close();
    const rows = (path: string) => {
      const db = new Database(path, { readonly: true });
      try {
        return db.prepare(`SELECT content FROM ${STEMS_TABLE} ORDER BY content`).pluck().all();
      } finally {
        db.close();
      }
    };
    expect(rows(file)).toEqual(rows(fresh.file));
  });
});
