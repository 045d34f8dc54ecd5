import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it, vi } from 'vitest';
import type { GraphBatch, GraphNode } from '../src/graph/graph-batch.js';
import { PREFIX_LENGTHS, prefixesOf } from '../src/stores/sqlite/full-text.js';
import { RANK_WINDOW } from '../src/stores/sqlite/sqlite-search.js';
import { STORE_REBUILD_CHANNEL } from '../src/stores/sqlite/sqlite-migrations.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { STORE_REBUILD } from '../src/cli/run-cli.js';
import type { SearchQuery } from '../src/stores/store.js';
import { tempDir } from './support/convert-to-temp.js';
import { searchBatches, stemBatches } from './support/search-fixtures.js';

// Issue 46: FTS5 indexes 2-, 3- and 4-letter prefixes, so `the*` reads one list of matches instead
// of merging every word it starts. A store made before is searched as it is until it is next
// opened for writing, which builds its three full-text tables again, once; the answers are the
// same before and after. And the number of conversations holding the words is exact whatever
// the page (issue 43), also past the ranking window.

// Earlier releases' full-text tables, as their schemas made them: no prefix option, then
// 2- and 3-letter prefixes (4-letter ones came with issue 46's ninth pass: `beca*` merged the
// lists of every word it starts, twice a search).
const oldTables = (prefixes: string): string[] => {
  const option = prefixes === '' ? '' : `, prefix='${prefixes}'`;
  return [
    `CREATE VIRTUAL TABLE message_fts USING fts5(content, content='Message', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2'${option})`,
    `CREATE VIRTUAL TABLE attachment_fts USING fts5(content, content='Attachment', content_rowid='rowid', tokenize='porter unicode61 remove_diacritics 2'${option})`,
    `CREATE VIRTUAL TABLE message_stems USING fts5(content, tokenize='unicode61 remove_diacritics 2'${option})`,
  ];
};

/** A store as an earlier release left it: the same rows, full-text tables with `prefixes`. */
async function oldStore(prefixes: string): Promise<string> {
  const file = join(tempDir(), 'chatgraph.sqlite');
  const store = SqliteStore.open(file);
  await store.upsert([...searchBatches(), ...stemBatches()]);
  await store.close();
  const db = new Database(file);
  db.exec(`CREATE TABLE stems_kept AS SELECT rowid AS id, content FROM message_stems`);
  db.exec(`DROP TABLE message_fts; DROP TABLE attachment_fts; DROP TABLE message_stems`);
  for (const statement of oldTables(prefixes)) db.exec(statement);
  db.exec(`INSERT INTO message_fts (message_fts) VALUES ('rebuild')`);
  db.exec(`INSERT INTO attachment_fts (attachment_fts) VALUES ('rebuild')`);
  db.exec(`INSERT INTO message_stems (rowid, content) SELECT id, content FROM stems_kept`);
  db.exec(`DROP TABLE stems_kept`);
  db.close();
  return file;
}

const prefixQueries: SearchQuery[] = [
  { text: 'ze*' },
  { text: 'zep*' },
  { text: 'zeppel*' },
  { text: 'th*' },
  { text: 'the*', limit: 3 },
  { text: 'the*', source: 'claude-ai' },
  { text: 'fo* -levain' },
  { text: 'pu*' },
  { text: 'mar* OR foc*', role: 'user' },
  { text: 'inst*' },
  { text: 'zepp*' },
  { text: 'leva*', source: 'chatgpt' },
  { text: 'inst* -zeppelin' },
];

/** Everything a search answers but its timing: hits, scores, counts. */
async function answers(file: string): Promise<unknown[]> {
  const store = SqliteStore.open(file, { readonly: true });
  try {
    const all: unknown[] = [];
    for (const query of prefixQueries) all.push(await store.search({ limit: 50, ...query }));
    return all;
  } finally {
    await store.close();
  }
}

const prefixes = (file: string): (string | undefined)[] => {
  const db = new Database(file, { readonly: true });
  try {
    return ['message_fts', 'attachment_fts', 'message_stems'].map((t) => prefixesOf(db, t));
  } finally {
    db.close();
  }
};

describe('the prefix index', () => {
  it.each([
    ['without prefixes', ''],
    ['with 2- and 3-letter prefixes', '2 3'],
  ])(
    'is built once when a store made %s is next opened for writing; prefixes answer the same',
    async (_made, made) => {
      const file = await oldStore(made);
      const before = await answers(file);
      // Something matched: the comparison below is not between two empty lists.
      expect(before.every((a) => (a as { matches: number }).matches > 0)).toBe(true);
      // Read-only, it is searched as it is: nothing is built behind a search.
      expect(prefixes(file)).toEqual([made, made, made]);

      const told: unknown[] = [];
      const listener = (message: unknown): void => void told.push(message);
      subscribe(STORE_REBUILD_CHANNEL, listener);
      try {
        await SqliteStore.open(file).close();
        // Once: a second open finds the tables up to date.
        await SqliteStore.open(file).close();
      } finally {
        unsubscribe(STORE_REBUILD_CHANNEL, listener);
      }
      expect(told).toEqual([
        expect.objectContaining({
          tables: ['message_fts', 'attachment_fts', 'message_stems'],
          messages: expect.any(Number) as unknown,
        }),
      ]);
      expect(prefixes(file)).toEqual([PREFIX_LENGTHS, PREFIX_LENGTHS, PREFIX_LENGTHS]);
      expect(await answers(file)).toEqual(before);
      // The CLI says so on stderr (for a store large enough to make people wait).
      expect(STORE_REBUILD).toBe(STORE_REBUILD_CHANNEL);
    },
  );

  // Rebuilt in place with secure_delete, the old table's dropped pages were kept in the
  // statement's journal, in memory: 731 MB of peak RSS at a million messages, 251 MB with the
  // journal on disk (docs/performance.md, ninth pass). Only for the rebuild, and only for a store
  // that is not encrypted (SQLite's temporary files are not).
  it('is rebuilt with its temporary files on disk, then in memory again', async () => {
    const file = await oldStore('2 3');
    const pragma = vi.spyOn(Database.prototype, 'pragma');
    try {
      const store = SqliteStore.open(file);
      const temp = pragma.mock.calls.map(([source]) => source).filter((s) => /^temp_store/.test(s));
      expect(temp).toEqual(['temp_store = MEMORY', 'temp_store = FILE', 'temp_store = MEMORY']);
      await store.close();
      pragma.mockClear();
      // Up to date, it is opened with them in memory only.
      const again = SqliteStore.open(file);
      const after = pragma.mock.calls
        .map(([source]) => source)
        .filter((s) => /^temp_store/.test(s));
      expect(after).toEqual(['temp_store = MEMORY']);
      await again.close();
    } finally {
      pragma.mockRestore();
    }
    expect(prefixes(file)).toEqual([PREFIX_LENGTHS, PREFIX_LENGTHS, PREFIX_LENGTHS]);
  });

  it('is made with a new store', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    await SqliteStore.open(file).close();
    expect(prefixes(file)).toEqual([PREFIX_LENGTHS, PREFIX_LENGTHS, PREFIX_LENGTHS]);
    // 4-letter prefixes too: `beca*` is one list, not a merge of every word it starts.
    expect(PREFIX_LENGTHS.split(' ')).toContain('4');
  });
});

// 400 conversations of 8 messages: "note" in every message (3,200, past the ranking window),
// "kiwi" in every other one, "mango" once in every conversation whose number is a multiple of
// 3, "lemon" once in every 7th; the second half from another source.
const CONVERSATIONS = 400;
function manyConversations(): GraphBatch[] {
  return Array.from({ length: CONVERSATIONS }, (_, c) => {
    const id = `many-${c}`;
    const nodes: GraphNode[] = [
      {
        label: 'Conversation',
        id,
        properties: {
          name: `Talk ${c}`,
          title: `Talk ${c}`,
          conversation_id: `platform-${id}`,
          source: c < CONVERSATIONS / 2 ? 'chatgpt' : 'claude-ai',
          created_at: '2024-01-01T00:00:00Z',
          message_count: 8,
        },
      },
    ];
    const edges = [];
    for (let m = 0; m < 8; m++) {
      const words = ['note'];
      if ((c * 8 + m) % 2 === 0) words.push('kiwi');
      if (c % 3 === 0 && m === 5) words.push('mango');
      if (c % 7 === 0 && m === 2) words.push('lemon');
      nodes.push({
        label: 'Message',
        id: `${id}:m${m}`,
        properties: {
          role: m % 2 === 0 ? 'user' : 'assistant',
          content: words.join(' '),
          created_at: `2024-01-01T00:0${m}:00Z`,
          conversation_id: `platform-${id}`,
          position: m,
          on_shown_thread: true,
        },
      });
      edges.push({ kind: 'HAS_MESSAGE' as const, from: id, to: `${id}:m${m}` });
    }
    return { owner: id, nodes, edges };
  });
}

describe('the number of conversations holding the words', () => {
  it('is exact at every limit and offset, past the ranking window', async () => {
    expect(CONVERSATIONS * 8).toBeGreaterThan(RANK_WINDOW);
    const file = join(tempDir(), 'chatgraph.sqlite');
    const writer = SqliteStore.open(file);
    await writer.upsert(manyConversations());
    await writer.close();
    const third = Math.ceil(CONVERSATIONS / 3);
    const seventh = Math.ceil(CONVERSATIONS / 7);
    // Counted from how the messages were written, not from the store.
    const cases: [SearchQuery, number][] = [
      [{ text: 'kiwi' }, CONVERSATIONS],
      [{ text: 'note' }, CONVERSATIONS],
      [{ text: 'kiw*' }, CONVERSATIONS],
      [{ text: 'ki*' }, CONVERSATIONS],
      [{ text: 'kiwi', source: 'claude-ai' }, CONVERSATIONS / 2],
      [{ text: 'mango' }, third],
      [{ text: 'man*', source: 'chatgpt' }, Math.ceil(CONVERSATIONS / 2 / 3)],
      // "mango" is in the sixth message (position 5): an assistant's.
      [{ text: 'mango', role: 'user' }, 0],
      [{ text: 'mango', role: 'assistant' }, third],
      [{ text: 'mango OR lemon' }, third + seventh - Math.ceil(CONVERSATIONS / 21)],
      [{ text: 'note -kiwi' }, CONVERSATIONS],
      [{ text: 'kiwi lemon' }, seventh],
    ];
    const store = SqliteStore.open(file, { readonly: true });
    try {
      for (const [query, expected] of cases) {
        for (const [limit, offset] of [
          [1, 0],
          [7, 0],
          [20, 40],
          [1000, 0],
        ] as const) {
          const result = await store.search({ ...query, limit, offset });
          expect({ query, limit, offset, count: result.conversationCount }).toEqual({
            query,
            limit,
            offset,
            count: expected,
          });
        }
      }
    } finally {
      await store.close();
    }
  });
});
