import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { embedConversations } from '../src/recall/embed-conversations.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { bagOfWords } from './contract/vector-contract.js';
import { tempDir } from './support/convert-to-temp.js';
import { batchesOf, knownConversations } from './support/graph-fixtures.js';

const whole = (text: string) => [{ text, start: 0, end: text.length }];

describe('a store whose vectors predate the int8 column', () => {
  it('is brought up to date on opening (the column filled from the float vectors) and searched the same', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert(batchesOf(await knownConversations()));
    await embedConversations(store.vectors, { embedder: bagOfWords, chunk: whole });
    const [vector] = await bagOfWords.embed(['how long should sourdough proof']);
    if (!vector) throw new Error('no vector');
    const expected = await store.vectors.search({ vector, limit: 5 });
    expect(expected.length).toBe(5);
    await store.close();

    const db = new Database(file);
    db.exec(`ALTER TABLE vector_unit DROP COLUMN q8`);
    db.close();
    const upgraded = SqliteStore.open(file, { readonly: true });
    expect(await upgraded.vectors.search({ vector, limit: 5 })).toEqual(expected);
    await upgraded.close();

    const peek = new Database(file, { readonly: true });
    const missing = peek.prepare(`SELECT count(*) FROM vector_unit WHERE q8 IS NULL`).pluck().get();
    const rows = peek.prepare(`SELECT count(*) FROM vector_unit`).pluck().get();
    peek.close();
    expect(missing).toBe(0);
    expect(rows).toBeGreaterThan(5);
  });
});
