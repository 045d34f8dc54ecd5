import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { deleteConversation } from '../src/data-folder/delete-conversation.js';
import { importExports, reindex } from '../src/data-folder/import-exports.js';
import { Folder } from '../src/folder/folder.js';
import { layoutOf } from '../src/folder/layout.js';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import {
  CONVERSATION_NUMBERS,
  MESSAGE_CONVERSATIONS,
} from '../src/stores/sqlite/message-conversations.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { tempDir } from './support/convert-to-temp.js';
import { grainMismatches } from './support/grain-check.js';
import { searchBatches, stemBatches } from './support/search-fixtures.js';

// Issue 46: each message's conversation as a number, kept beside the messages, is what exact counts of
// conversations read. It must name every message's conversation and nothing else, whatever
// wrote the messages, and a store made before it must get it once.

/** What the table says against what the messages say, read from the file. */
function check(file: string): { messages: number; wrong: number; extra: number; facts: number } {
  const db = new Database(file, { readonly: true });
  try {
    const count = (sql: string): number => Number(db.prepare(sql).pluck().get());
    return {
      messages: count(`SELECT count(*) FROM "Message"`),
      // A message with no number, or the number of another conversation.
      wrong: count(
        `SELECT count(*) FROM "Message" m LEFT JOIN ${MESSAGE_CONVERSATIONS} k ON k.rowid = m.rowid
         LEFT JOIN ${CONVERSATION_NUMBERS} n ON n.n = k.n WHERE n.owner IS NOT m.owner`,
      ),
      // A role or a day that is not the message's (issue 46, fifth pass).
      facts: count(
        `SELECT count(*) FROM "Message" m JOIN ${MESSAGE_CONVERSATIONS} k ON k.rowid = m.rowid
         WHERE k.role IS NOT m.role
            OR k.day IS NOT CAST(replace(substr(m.created_at, 1, 10), '-', '') AS INTEGER)`,
      ),
      // A number for a message that is no longer there.
      extra: count(
        `SELECT count(*) FROM ${MESSAGE_CONVERSATIONS} k WHERE NOT EXISTS (SELECT 1 FROM "Message" m WHERE m.rowid = k.rowid)`,
      ),
    };
  } finally {
    db.close();
  }
}

function expectRight(file: string): number {
  const { messages, wrong, extra, facts } = check(file);
  expect({ wrong, extra, facts }).toEqual({ wrong: 0, extra: 0, facts: 0 });
  // Each conversation's words (issue 46, fifth pass) say what its texts say.
  expect(grainMismatches(file)).toEqual([]);
  return messages;
}

const conversations = async (file: string, text: string, limit = 1): Promise<number> => {
  const store = SqliteStore.open(file, { readonly: true });
  try {
    return (await store.search({ text, limit })).conversationCount ?? -1;
  } finally {
    await store.close();
  }
};

describe("each message's conversation number", () => {
  it('is made and filled once for a store made before it, and counts right after', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    // With French and German conversations: their stems are counted from their words too.
    await store.upsert([...searchBatches(), ...stemBatches()]);
    await store.close();
    const expected = await conversations(file, 'focaccia OR marathon OR zeppelin');
    expect(expected).toBe(3);
    // The previous release's store: no table, no triggers.
    const old = new Database(file);
    old.exec(
      `DROP TRIGGER message_conversation_delete; DROP TABLE ${MESSAGE_CONVERSATIONS}; DROP TABLE ${CONVERSATION_NUMBERS}`,
    );
    old.close();
    expect(SqliteStore.needsUpgrade(file)).toBe(true);

    // Opened to be read, it is brought up to date first, once.
    for (const limit of [1, 2, 30])
      expect(await conversations(file, 'focaccia OR marathon OR zeppelin', limit)).toBe(3);
    expect(SqliteStore.needsUpgrade(file)).toBe(false);
    expect(expectRight(file)).toBeGreaterThan(0);
    const numbers = new Database(file, { readonly: true });
    expect(numbers.prepare(`SELECT count(*) FROM ${CONVERSATION_NUMBERS}`).pluck().get()).toBe(
      searchBatches().length + stemBatches().length,
    );
    numbers.close();

    // Written again after the upgrade: the writer keeps it.
    const writer = SqliteStore.open(file);
    await writer.upsert(searchBatches().slice(0, 1));
    await writer.close();
    expectRight(file);
    expect(await conversations(file, 'focaccia OR marathon OR zeppelin')).toBe(3);
  });

  it('stays right after a delete, a forced re-import, import --restore and a reindex', async () => {
    const dir = tempDir();
    const input = join(dir, 'export.zip');
    await writeChatgptExport(input, { seed: 11, conversations: 12 });
    const data = join(dir, 'data');
    const folder = new Folder(data);
    const file = layoutOf(data).store;
    await importExports(folder, [input]);
    const all = expectRight(file);
    const holding = await conversations(file, 'the');
    expect(holding).toBe(12);

    const db = new Database(file, { readonly: true });
    const victim = String(db.prepare(`SELECT id FROM "Conversation" LIMIT 1`).pluck().get());
    db.close();
    await deleteConversation(folder, victim);
    expect(expectRight(file)).toBeLessThan(all);
    expect(await conversations(file, 'the', 20)).toBe(holding - 1);

    await importExports(folder, [input], { force: true });
    expectRight(file);
    expect(await conversations(file, 'the')).toBe(holding - 1);

    await importExports(folder, [input], { restore: true });
    expect(expectRight(file)).toBe(all);
    expect(await conversations(file, 'the', 3)).toBe(holding);

    await reindex(folder);
    expect(expectRight(file)).toBe(all);
    expect(await conversations(file, 'the')).toBe(holding);
  });
});
