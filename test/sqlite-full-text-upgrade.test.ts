import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { tokenizerOf, TOKENIZER } from '../src/stores/sqlite/full-text.js';
import { tempDir } from './support/convert-to-temp.js';
import { searchBatches } from './support/search-fixtures.js';

// The previous release's full-text table, exactly as its schema made it.
const OLD_MESSAGE_FTS = `CREATE VIRTUAL TABLE message_fts USING fts5(content, content='Message', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2')`;

/** A store file as the previous release left it: unstemmed message_fts, no attachment index. */
async function oldStore(): Promise<string> {
  const file = join(tempDir(), 'chatgraph.sqlite');
  const store = SqliteStore.open(file);
  await store.upsert(searchBatches());
  await store.close();
  const db = new Database(file);
  db.exec(`DROP TABLE message_fts; DROP TABLE attachment_fts`);
  db.exec(OLD_MESSAGE_FTS);
  db.exec(`INSERT INTO message_fts (message_fts) VALUES ('rebuild')`);
  db.close();
  return file;
}

const found = async (store: SqliteStore, text: string): Promise<string[]> =>
  (await store.search({ text })).hits.map((h) => h.messageId);

describe('a store made by the previous release', () => {
  it('is read as it is when opened read-only, and re-indexed with stemming when opened for writing', async () => {
    const file = await oldStore();

    const reader = SqliteStore.open(file, { readonly: true });
    // Searched without stemming, as before; the attachment index is added (it is cheap).
    expect(await found(reader, 'decorators')).toEqual(['kw-bread:m3']);
    expect(await found(reader, 'decorator')).toEqual([]);
    expect(await found(reader, 'focaccia -levain')).toEqual(['kw-bread:m1']);
    expect(await found(reader, 'pumpernickel')).toEqual(['kw-bread:m3']);
    await reader.close();
    const peek = new Database(file, { readonly: true });
    expect(tokenizerOf(peek, 'message_fts')).toBe('unicode61 remove_diacritics 2');
    peek.close();

    const writer = SqliteStore.open(file);
    await writer.close();
    const after = new Database(file, { readonly: true });
    expect(tokenizerOf(after, 'message_fts')).toBe(TOKENIZER);
    expect(tokenizerOf(after, 'attachment_fts')).toBe(TOKENIZER);
    after.close();
    const upgraded = SqliteStore.open(file, { readonly: true });
    expect(await found(upgraded, 'decorator')).toEqual(['kw-bread:m3']);
    expect((await upgraded.search({ text: 'zeppelin' })).matches).toBe(25);
    expect(await found(upgraded, 'pumpernickel')).toEqual(['kw-bread:m3']);
    await upgraded.close();
  });

  it('keeps the indexes in step when a conversation is written again or cleared', async () => {
    const store = SqliteStore.open(join(tempDir(), 'chatgraph.sqlite'));
    await store.upsert(searchBatches());
    const [bread, ...rest] = searchBatches();
    if (!bread) throw new Error('no fixture');
    // The attachment's text changes: the old text is no longer found, the new one is.
    const changed = {
      ...bread,
      nodes: bread.nodes.map((n) =>
        n.label === 'Attachment'
          ? { ...n, properties: { ...n.properties, content: 'Ciabatta' } }
          : n,
      ),
    };
    await store.upsert([changed, ...rest]);
    expect(await found(store, 'pumpernickel')).toEqual([]);
    expect(await found(store, 'ciabatta')).toEqual(['kw-bread:m3']);
    await store.clear();
    expect(await found(store, 'ciabatta')).toEqual([]);
    expect(await found(store, 'focaccia')).toEqual([]);
    await store.close();
  });
});
