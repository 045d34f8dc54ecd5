import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { batchesOf, knownConversations } from '../../../test/support/graph-fixtures.js';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import type { ConversationFilter } from '../store.js';
import { LIST_INDEXES, SOURCES_SQL } from './sqlite-list-migration.js';
import { listingQuery } from './sqlite-reads.js';
import { SqliteStore } from './sqlite-store.js';

const SORTS = ['newest', 'oldest', 'most-messages', 'updated', 'title'] as const;

async function filledStore(): Promise<string> {
  const file = join(tempDir(), 'chatgraph.sqlite');
  const store = SqliteStore.open(file);
  await store.upsert(batchesOf(await knownConversations()));
  await store.close();
  return file;
}

describe('the conversation list in SQLite', () => {
  it('reads every sort from its index, from a cursor too: no sort step, no scan', async () => {
    const file = await filledStore();
    const store = SqliteStore.open(file);
    const first = await store.listConversations({ sort: 'title', limit: 1 });
    await store.close();
    const db = new Database(file, { readonly: true });
    const plan = (filter: ConversationFilter): string => {
      const { sql, params } = listingQuery(filter);
      return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[])
        .map((row) => row.detail)
        .join('; ');
    };
    for (const sort of SORTS)
      for (const filter of [
        { sort, limit: 50 },
        { sort, limit: 50, minMessages: 1 },
        { sort, limit: 50, after: first.nextCursor ?? '' },
      ]) {
        const detail = plan(filter);
        expect(detail, `${sort}: ${detail}`).toMatch(/USING INDEX conversation_by_/);
        expect(detail).not.toMatch(/TEMP B-TREE/);
      }
    // A cursor seeks into the index: the key is bounded in the index search itself.
    expect(plan({ sort: 'newest', limit: 50, after: first.nextCursor ?? '' })).toMatch(
      /USING INDEX conversation_by_created \(created_at</,
    );
    // The source menu seeks in its index rather than reading every row.
    const sources = (db.prepare(`EXPLAIN QUERY PLAN ${SOURCES_SQL}`).all() as { detail: string }[])
      .map((row) => row.detail)
      .join('; ');
    expect(sources).toMatch(/COVERING INDEX conversation_by_source/);
    expect(sources).not.toMatch(/SCAN "?Conversation"?(?! USING)/);
    expect(db.prepare(SOURCES_SQL).pluck().all()).toEqual(['chatgpt', 'claude-ai']);
    db.close();
  });

  it('gives a store written before previews its indexes and previews when opened', async () => {
    const file = await filledStore();
    const db = new Database(file);
    for (const name of Object.keys(LIST_INDEXES)) db.exec(`DROP INDEX ${name}`);
    db.exec(`UPDATE "Conversation" SET preview = NULL`);
    db.close();
    const store = SqliteStore.open(file);
    const { items } = await store.listConversations({ sort: 'title', limit: 10 });
    await store.close();
    expect(items.map((c) => c.preview)).toEqual([
      'hello',
      'How long should sourdough proof?',
      'hello',
    ]);
    const again = new Database(file, { readonly: true });
    const indexes = again
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'conversation_by_%'`,
      )
      .pluck()
      .all();
    again.close();
    expect(indexes.sort()).toEqual(Object.keys(LIST_INDEXES).sort());
  });
});
