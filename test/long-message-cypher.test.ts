import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { CYPHER_TEXT_CHARACTERS } from '../src/stores/cypher/cypher-text-bound.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { branchedConversation, msg, node } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { Folder } from '../src/folder/folder.js';

// Past Grafeo's 16 MiB limit on one value: 17 MiB of words, and a last word to search for.
const LONG = `${'lorem ipsum '.repeat((17 * 1024 * 1024) / 12)}zebrafinch`;

describe('a message over 16 MiB on the embedded store', () => {
  it('leaves Cypher working, with a bounded content; thread and search keep the whole text', async () => {
    const dir = tempDir();
    const conversation = branchedConversation('long');
    const mapping = conversation.mapping as Record<string, unknown>;
    mapping.u = node('u', 'root', ['a', 'b'], msg('u', 'user', LONG, 1_700_000_001));
    const input = join(dir, 'conversations.json');
    writeFileSync(input, JSON.stringify([conversation, branchedConversation('short')]));
    const data = join(dir, 'data');
    await importExports(new Folder(data), [input]);
    const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
    try {
      const rows = await store.cypher(
        'MATCH (m:Message) RETURN size(m.content) AS n ORDER BY n DESC LIMIT 1',
      );
      expect(rows).toEqual([{ n: CYPHER_TEXT_CHARACTERS }]);
      const documents = await store.cypher(
        'MATCH (d:Document) RETURN size(d.content) AS n ORDER BY n DESC LIMIT 1',
      );
      expect(documents).toEqual([{ n: CYPHER_TEXT_CHARACTERS }]);
      const prefix = await store.cypher(
        "MATCH (m:Message) WHERE m.content STARTS WITH 'lorem ipsum' RETURN count(m) AS n",
      );
      expect(prefix).toEqual([{ n: 1 }]);
      const { items } = await store.listConversations({ limit: 10 });
      const lengths = [];
      for (const item of items)
        for (const message of await store.thread(item.id)) lengths.push(message.content.length);
      expect(lengths).toContain(LONG.length);
      const found = await store.search({ text: 'zebrafinch' });
      expect(found.hits).toHaveLength(1);
    } finally {
      await store.close();
    }
  }, 180_000);
});
