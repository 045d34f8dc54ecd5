import Database from 'better-sqlite3-multiple-ciphers';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { FULL_TEXT } from './full-text.js';
import { SqliteStore } from './sqlite-store.js';
import { STEMS_TABLE } from './stemmed-full-text.js';

describe('the full-text tables of a store opened for writing', () => {
  it('hold 8 MB of pending terms before writing a segment, and keep secure-delete on', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    await SqliteStore.open(file).close();
    const db = new Database(file, { readonly: true });
    try {
      for (const table of [...FULL_TEXT.map((t) => t.table), STEMS_TABLE]) {
        const config = (key: string): unknown =>
          db.prepare(`SELECT v FROM ${table}_config WHERE k = ?`).pluck().get(key);
        expect(config('hashsize'), table).toBe(8 * 1024 * 1024);
        expect(config('secure-delete'), table).toBe(1);
      }
    } finally {
      db.close();
    }
  });
});
