import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { idBatches } from '../../../test/contract/id-contract.js';
import { MESSAGES_BY_PREFIX } from './sqlite-reads.js';
import { SqliteStore } from './sqlite-store.js';

const INDEX = 'message_local_id';

function hasIndex(file: string): boolean {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT 1 FROM sqlite_master WHERE name = ?`).get(INDEX) !== undefined;
  } finally {
    db.close();
  }
}

function byPrefix(file: string, low: string, high: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(MESSAGES_BY_PREFIX).all({ low, high, limit: 50 });
  } finally {
    db.close();
  }
}

// The short-id index is made after the first import of a fresh store, not row by row (see
// deferred-index.ts); it must be there whenever the import is over, however it ended.
describe('the message id index an import of a fresh store makes after its rows', () => {
  it('is left out while the first import commits and made when its writer ends', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    expect(hasIndex(file)).toBe(true);
    const writer = store.writer(false);
    const [first, ...rest] = idBatches();
    if (!first) throw new Error('no batches');
    await writer.write(first);
    await writer.flush();
    expect(hasIndex(file)).toBe(false);
    // The same answer meanwhile, by a scan.
    const during = byPrefix(file, '5e5e', '5e5f');
    expect(during.length).toBeGreaterThan(0);
    for (const batch of rest) await writer.write(batch);
    await writer.end();
    expect(hasIndex(file)).toBe(true);
    expect(byPrefix(file, '5e5e', '5e5f')).toEqual(expect.arrayContaining(during));
    await store.close();
  });

  it('is made again by the next open to write when the import was killed without it', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert(idBatches());
    await store.close();
    const answer = byPrefix(file, '5e5e', '5e5f');
    // What a kill after a commit leaves: the rows, without the index.
    const raw = new Database(file);
    raw.exec(`DROP INDEX ${INDEX}`);
    raw.close();
    expect(byPrefix(file, '5e5e', '5e5f')).toEqual(answer);
    await SqliteStore.open(file).close();
    expect(hasIndex(file)).toBe(true);
  });

  it('is kept as it is by a writer of a store that holds messages', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    const [first, ...rest] = idBatches();
    if (!first) throw new Error('no batches');
    await store.upsert([first]);
    const writer = store.writer(false);
    for (const batch of rest) await writer.write(batch);
    await writer.flush();
    expect(hasIndex(file)).toBe(true);
    await writer.end();
    await store.close();
    expect(hasIndex(file)).toBe(true);
  });

  it('is made again when the store closes without its writer ending (an import that failed)', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    const writer = store.writer(false);
    for (const batch of idBatches()) await writer.write(batch);
    await writer.flush();
    expect(hasIndex(file)).toBe(false);
    await store.close();
    expect(hasIndex(file)).toBe(true);
  });
});
