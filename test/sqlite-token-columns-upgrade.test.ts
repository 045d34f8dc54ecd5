// A store made before Messages had token properties (issue 39) is brought up to date in place:
// the columns are added, nothing already there is lost, and a reindex fills them.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importExports, reindex } from '../src/data-folder/import-exports.js';
import { Folder } from '../src/folder/folder.js';
import { layoutOf } from '../src/folder/layout.js';
import { TOKEN_FIELDS } from '../src/model/token-usage.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { FIXED_TIME, tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const ROLLOUT = join(
  ROOT,
  'test',
  'fixtures',
  'codex',
  'rollout-2025-10-29T09-12-04-019a2f3d-1704-7a1b-8c1d-2e3f4a5b6c7d.jsonl',
);

async function tokens(data: string): Promise<unknown[]> {
  const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
  try {
    return await store.cypher(
      'MATCH (m:Message) RETURN count(m) AS messages, sum(m.output_tokens) AS output',
    );
  } finally {
    await store.close();
  }
}

describe('a store made before the token properties', () => {
  it('gets their columns in place, keeps what it held, and takes the counts at a reindex', async () => {
    const data = join(tempDir(), 'data');
    await importExports(new Folder(data), [ROLLOUT], { importedAt: FIXED_TIME });
    expect(await tokens(data)).toEqual([{ messages: 12, output: 640 }]);
    const { default: Database } = await import('better-sqlite3-multiple-ciphers');
    const old = new Database(layoutOf(data).store);
    // As that version left it: no token sums, nor the indexes a usage report reads by.
    old.exec(`DROP INDEX message_token_time; DROP INDEX message_response; DROP TABLE token_counts`);
    for (const field of TOKEN_FIELDS) old.exec(`ALTER TABLE "Message" DROP COLUMN ${field}`);
    old.close();
    // Opened, it is upgraded in place: the messages stay, their counts are empty until read again.
    expect(await tokens(data)).toEqual([{ messages: 12, output: null }]);
    const columns = new Database(layoutOf(data).store, { readonly: true });
    const names = columns.prepare(`SELECT name FROM pragma_table_info('Message')`).pluck().all();
    columns.close();
    for (const field of TOKEN_FIELDS) expect(names).toContain(field);
    // As for every property added since (a conversation's url too), `reindex` fills them in.
    await reindex(new Folder(data));
    expect(await tokens(data)).toEqual([{ messages: 12, output: 640 }]);
    // And the usage report's sums with them.
    const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
    try {
      const { slots } = await store.usage.tokenTotals({});
      expect(slots.reduce((sum, slot) => sum + slot.output, 0)).toBe(640);
    } finally {
      await store.close();
    }
  });
});
