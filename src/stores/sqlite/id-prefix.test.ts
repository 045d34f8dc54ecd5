import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { idBatches } from '../../../test/contract/id-contract.js';
import { CONVERSATIONS_BY_PREFIX, MESSAGES_BY_PREFIX } from './sqlite-reads.js';
import { SqliteStore } from './sqlite-store.js';

// The lookups of an id typed short must stay index ranges: a scan is slow at 100k conversations.
describe('the embedded store’s id prefix lookups', () => {
  it('search indexes, never scan a table', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert(idBatches());
    await store.close();
    const db = new Database(file, { readonly: true });
    const plan = (sql: string): string =>
      (
        db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ low: 'a', high: 'b', limit: 6 }) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join('\n');
    const conversations = plan(CONVERSATIONS_BY_PREFIX);
    const messages = plan(MESSAGES_BY_PREFIX);
    db.close();
    expect(conversations).toMatch(/conversation_platform/);
    expect(messages).toMatch(/message_local_id/);
    expect(`${conversations}\n${messages}`).not.toMatch(/SCAN (Conversation|Message)\b/);
  });
});
