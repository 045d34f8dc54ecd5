import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import type { GraphBatch, GraphEdge, GraphNode } from '../../graph/graph-batch.js';
import type { SearchQuery } from '../store.js';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { grainMismatches } from '../../../test/support/grain-check.js';
import { openReadonly } from './open-readonly.js';
import { searchSqlite } from './sqlite-search.js';
import { STORE_REBUILD_CHANNEL } from './sqlite-migrations.js';
import { SqliteStore } from './sqlite-store.js';
import { PAIRS_TABLE } from './word-pairs.js';

// Issue 46, eleventh pass: a phrase of two words, one of them very common, is counted and ranked
// from the pairs table (word-pairs.ts) instead of message_fts's positions. The answers are the
// same, scores bit for bit, as message_fts gives them: in a store whose pairs are dropped (an
// older store read as it is), and after that store's upgrade.

const WORDS = ['the', 'and', 'of', 'budget', 'because', 'sourdough', 'is', 'it', 'levain', 'a'];
const SEPARATORS = [' ', ' ', ' ', ', ', '. ', ' — ', '’', ' 🤔 ', ' thé ', '\n'];

/** A text drawn from a few words, some very common (a fixed seed: the same store each run). */
function texts(count: number, seed = 7): string[] {
  let state = seed;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  return Array.from({ length: count }, () => {
    const length = 2 + next(25);
    let text = '';
    for (let i = 0; i < length; i++)
      text += (WORDS[next(WORDS.length)] ?? '') + (SEPARATORS[next(SEPARATORS.length)] ?? ' ');
    return next(5) === 0 ? `The AND ${text}` : text;
  });
}

function conversation(id: string, source: string, said: string[]): GraphBatch {
  const nodes: GraphNode[] = [
    {
      label: 'Conversation',
      id,
      properties: { name: id, title: id, conversation_id: `p-${id}`, source, message_count: 0 },
    },
  ];
  const edges: GraphEdge[] = [];
  said.forEach((text, position) => {
    const messageId = `${id}:${position}`;
    nodes.push({
      label: 'Message',
      id: messageId,
      properties: {
        role: position % 2 === 0 ? 'user' : 'assistant',
        content: text,
        created_at: `2025-01-0${1 + (position % 9)}T10:00:00Z`,
        conversation_id: `p-${id}`,
        position,
        on_shown_thread: true,
      },
    });
    edges.push({ kind: 'HAS_MESSAGE', from: id, to: messageId });
  });
  return { owner: id, nodes, edges };
}

function batches(): GraphBatch[] {
  const all = texts(240);
  return Array.from({ length: 12 }, (_, i) =>
    conversation(`c${i}`, i % 3 === 0 ? 'claude-ai' : 'chatgpt', all.slice(i * 20, i * 20 + 20)),
  );
}

const QUERIES: SearchQuery[] = [
  { text: '"the and"' },
  { text: '"the and"', role: 'user' },
  { text: '"the and"', role: 'user', limit: 3, offset: 2 },
  { text: '"and the"', source: 'claude-ai' },
  { text: '"budget and"' },
  { text: '"because, the"', since: '2025-01-04' },
  { text: '"sourdough levain"' },
  { text: '"of of"' },
  { text: '"The AND"' },
  { text: '"the" "and"' },
  { text: '"the and of"' },
  { text: '"budget and" -levain' },
  { text: '"the and"', limit: 1 },
];

/** Every answer whole (hits, scores, counts), read-only, by this code (not a search child). */
function answers(file: string): unknown[] {
  const db = openReadonly(file, undefined);
  try {
    return QUERIES.map((query) => searchSqlite(db, { limit: 200, ...query }));
  } finally {
    db.close();
  }
}

function tableNames(file: string): unknown[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT name FROM sqlite_master`).pluck().all();
  } finally {
    db.close();
  }
}

/** The statements a search prepares. */
function statementsOf(file: string, query: SearchQuery): string[] {
  const db = openReadonly(file, undefined);
  const seen: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = (sql: string) => {
    seen.push(sql);
    return prepare(sql);
  };
  try {
    searchSqlite(db, query);
    return seen;
  } finally {
    db.close();
  }
}

describe('a phrase of common words read from their pairs', () => {
  it('counts and ranks as message_fts does, without reading its positions', async () => {
    const dir = tempDir();
    const file = join(dir, 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert(batches());
    await store.close();
    // The same store with its pairs table under another name, as one made with another word
    // list (or before the name carried one) has it: searched as an older store is, from
    // message_fts, and never from the other table.
    const older = join(dir, 'older.sqlite');
    copyFileSync(file, older);
    const db = new Database(older);
    db.exec(`ALTER TABLE ${PAIRS_TABLE} RENAME TO message_pairs`);
    db.close();
    const expected = answers(older);
    expect(answers(file)).toEqual(expected);
    // Not vacuous: the phrases match, in several rows, some several times.
    expect(expected[0]).toHaveProperty('matches', 50);
    for (const query of [QUERIES[0], QUERIES[1], QUERIES[4]])
      expect(
        statementsOf(file, { limit: 20, ...query, text: query?.text ?? '' }).filter((sql) =>
          sql.includes('message_fts MATCH'),
        ),
      ).toEqual([]);
    expect(grainMismatches(file)).toEqual([]);
    // Opened to be read, it is left as it is (no minute a million messages to wait).
    await SqliteStore.open(older, { readonly: true }).close();
    expect(tableNames(older)).not.toContain(PAIRS_TABLE);
    expect(tableNames(older)).toContain('message_pairs');
    // Opened to write, the older store gets its pairs, with the same answers.
    const told: unknown[] = [];
    const listen = (message: unknown): number => told.push(message);
    subscribe(STORE_REBUILD_CHANNEL, listen);
    try {
      await SqliteStore.open(older).close();
    } finally {
      unsubscribe(STORE_REBUILD_CHANNEL, listen);
    }
    expect(told).toEqual([{ file: older, tables: [PAIRS_TABLE], messages: 240 }]);
    expect(tableNames(older)).toContain(PAIRS_TABLE);
    // The other cutting's table is gone, its shadow tables with it.
    expect(tableNames(older).filter((name) => String(name).startsWith('message_pairs_'))).toEqual(
      tableNames(file).filter((name) => String(name).startsWith('message_pairs_')),
    );
    expect(tableNames(older)).not.toContain('message_pairs');
    expect(grainMismatches(older)).toEqual([]);
    expect(answers(older)).toEqual(expected);
  });

  it('follows a message whose text changes, and a conversation written again or deleted', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    const first = conversation('c0', 'chatgpt', ['the and of the', 'because and the budget']);
    const later = conversation('c0', 'chatgpt', ['budget levain', 'because and the budget']);
    await store.upsert([first, conversation('c1', 'chatgpt', ['the and the and'])]);
    expect(await store.patch(first, later, false)).toBe('written');
    expect(grainMismatches(file)).toEqual([]);
    expect((await store.search({ text: '"the and"' })).matches).toBe(1);
    await store.upsert([conversation('c1', 'chatgpt', ['of the budget'])]);
    expect(grainMismatches(file)).toEqual([]);
    expect((await store.search({ text: '"the and"' })).matches).toBe(0);
    await store.close();
  });
});
