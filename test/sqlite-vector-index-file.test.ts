import { existsSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { embedConversations } from '../src/recall/embed-conversations.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { bagOfWords } from './contract/vector-contract.js';
import { tempDir } from './support/convert-to-temp.js';
import { batchesOf, knownConversations } from './support/graph-fixtures.js';

const whole = (text: string) => [{ text, start: 0, end: text.length }];

// Where a data folder's store saves its index (the folder's layout names it; the store is told).
const indexOf = (file: string): string => join(file, '..', 'vector-index.bin');

async function embeddedStore(): Promise<{ file: string; vector: Float32Array }> {
  const file = join(tempDir(), 'chatgraph.sqlite');
  const store = SqliteStore.open(file, { vectorIndexFile: indexOf(file) });
  await store.upsert(batchesOf(await knownConversations()));
  await embedConversations(store.vectors, { embedder: bagOfWords, chunk: whole });
  await store.close();
  const [vector] = await bagOfWords.embed(['how long should sourdough proof']);
  if (!vector) throw new Error('no vector');
  return { file, vector };
}

async function searchOnce(file: string, vector: Float32Array): Promise<string[]> {
  const store = SqliteStore.open(file, { readonly: true, vectorIndexFile: indexOf(file) });
  try {
    return (await store.vectors.search({ vector, limit: 5 })).map((h) => h.nodeId);
  } finally {
    await store.close();
  }
}

/** Every unit's int8 vector broken behind the store's back (loading the rows would fail). */
function breakRows(file: string): void {
  const db = new Database(file);
  db.exec(`UPDATE vector_unit SET q8 = x'00'`);
  db.close();
}

describe('the vector index saved beside the store', () => {
  it('is what the next process reads instead of the rows, while the vectors are unchanged', async () => {
    const { file, vector } = await embeddedStore();
    const indexFile = join(file, '..', 'vector-index.bin');
    expect(existsSync(indexFile)).toBe(false);
    const first = await searchOnce(file, vector);
    expect(existsSync(indexFile)).toBe(true);
    // The rows broken behind the store's back: the saved index still serves...
    breakRows(file);
    expect(await searchOnce(file, vector)).toEqual(first);
    // ...where reading the rows themselves now fails.
    writeFileSync(indexFile, 'not an index');
    await expect(searchOnce(file, vector)).rejects.toThrow('a stored vector of 1 bytes');
  });

  it('is removed when the vectors change, and a damaged one is ignored', async () => {
    const { file, vector } = await embeddedStore();
    const indexFile = join(file, '..', 'vector-index.bin');
    const expected = await searchOnce(file, vector);
    truncateSync(indexFile, 100);
    expect(await searchOnce(file, vector)).toEqual(expected);
    // Rewritten whole after the damaged one was passed over.
    expect(readFileSync(indexFile).byteLength).toBeGreaterThan(100);
    const store = SqliteStore.open(file, { vectorIndexFile: indexOf(file) });
    expect(await store.deleteConversation((await knownConversations())[0]?.id ?? '')).toBe(true);
    expect(existsSync(indexFile)).toBe(false);
    await store.close();
  });

  it('is read again from the rows when damaged behind an intact header (its checksum)', async () => {
    const { file, vector } = await embeddedStore();
    const indexFile = join(file, '..', 'vector-index.bin');
    const expected = await searchOnce(file, vector);
    const sound = readFileSync(indexFile);
    // Every byte after the header zeroed, the header (and so the length) left as it was.
    const headerEnd = 'chatgraph vector index 2\n'.length + 4;
    const damaged = Buffer.from(sound);
    damaged.fill(0, headerEnd + damaged.readUInt32LE(headerEnd - 4));
    writeFileSync(indexFile, damaged);
    expect(await searchOnce(file, vector)).toEqual(expected);
    expect(readFileSync(indexFile).equals(sound)).toBe(true);
  });
});
