// Issue 46, twelfth pass: an AND of words (`a b`) counts its conversations from the segments
// whose words hold every word and the matches' rowids in their ranges, not by joining every
// match to its conversation. Each conversation here is one way that could miscount: both words
// in one message, or in two; the pair in a live-appended segment of its own; and segments merged
// across other conversations' appends, whose ranges hold other conversations' matches.
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONVERSATION_SEGMENTS } from '../src/stores/sqlite/conversation-words.js';
import { openReadonly } from '../src/stores/sqlite/open-readonly.js';
import { searchSqlite } from '../src/stores/sqlite/sqlite-search.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { tempDir } from './support/convert-to-temp.js';
import { batch, type Text, watched, writtenInSteps } from './support/segment-stores.js';

// Written in three steps: `first`, `second` (rowids after every one of `first`'s), then the
// appends, one patch each in this order.
const FIRST: Record<number, Text[]> = {
  // Both words, in two messages: no match, though the conversation's words hold both.
  0: ['apple', 'banana'],
  1: ['apple banana', 'cherry'],
  2: ['apple banana', 'apple'],
  // Then the pair appended, a segment of its own.
  3: ['apple', 'cherry'],
  // Then a banana appended, merged with the first segment, whose range then holds c5's and
  // c7's pairs (and c6's): no match of its own.
  4: ['apple'],
  // Then the pair appended, merged: its range holds c5's and c7's pairs first.
  6: ['banana'],
};
const SECOND: Record<number, Text[]> = { 5: ['apple banana cherry'], 7: ['apple banana'] };
const APPENDS: [c: number, text: string][] = [
  [3, 'apple banana'],
  [4, 'banana'],
  [6, 'apple banana'],
];

const written = (): Promise<string> => writtenInSteps(FIRST, SECOND, APPENDS);

describe('the conversations of an AND of words', () => {
  it('are counted exactly from the segments holding every word, not match by match', async () => {
    const file = await written();
    const db = openReadonly(file, undefined);
    try {
      // Numbered as written (c6 before c5): c3 has two segments; c4's and c6's were merged
      // across other conversations' rows.
      const merged = db
        .prepare(
          `SELECT count(*) AS segments, sum(hi - lo + 1 > messages) AS merged
           FROM ${CONVERSATION_SEGMENTS} GROUP BY n ORDER BY n`,
        )
        .raw()
        .all();
      expect(merged).toEqual([
        [1, 0],
        [1, 0],
        [1, 0],
        [2, 0],
        [1, 1],
        [1, 1],
        [1, 0],
        [1, 0],
      ]);
      const statements = watched(db);
      const search = (text: string): [number | undefined, number] => {
        const result = searchSqlite(db, { text, limit: 20 });
        return [result.conversationCount, result.matches];
      };
      // c1, c2, c3 (its append), c5, c6 (its append, after c5's and c7's), c7.
      expect(search('apple banana')).toEqual([6, 6]);
      expect(search('ap* banana')).toEqual([6, 6]);
      expect(search('(apple OR zeppelin) banana')).toEqual([6, 6]);
      expect(search('apple banana cherry')).toEqual([1, 1]);
      expect(search('banana cherry')).toEqual([1, 1]);
      expect(statements.some((sql) => /count\(DISTINCT k\.n\)/.test(sql))).toBe(false);
      // Their matches counted in the same reading.
      expect(statements.some((sql) => /message_fts .*LIMIT 50001/s.test(sql))).toBe(false);
      // No segment holds both: counted as before.
      expect(search('apple zeppelin')).toEqual([0, 0]);
    } finally {
      db.close();
    }
  });

  it('are counted match by match when attachment text matches', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert([
      batch(0, [['apple', 'apple banana']]),
      batch(1, ['apple banana']),
      batch(2, ['apple', 'banana']),
    ]);
    await store.close();
    const db = openReadonly(file, undefined);
    try {
      const statements = watched(db);
      const result = searchSqlite(db, { text: 'apple banana', limit: 1 });
      expect([result.conversationCount, result.matches]).toEqual([2, 2]);
      expect(statements.some((sql) => sql.includes('group_concat(rowid)'))).toBe(false);
    } finally {
      db.close();
    }
  });

  it('are counted as the messages holding every word say, on random stores', async () => {
    const WORDS = ['apple', 'banana', 'cherry'];
    const words = fc.subarray(WORDS, { minLength: 1 }).map((list) => list.join(' '));
    const drawn = fc.record({
      first: fc.array(fc.array(words, { minLength: 1, maxLength: 4 }), {
        minLength: 1,
        maxLength: 4,
      }),
      second: fc.array(fc.array(words, { minLength: 1, maxLength: 3 }), { maxLength: 3 }),
      appends: fc.array(fc.tuple(fc.nat(6), words), { maxLength: 6 }),
    });
    await fc.assert(
      fc.asyncProperty(drawn, async ({ first, second, appends }) => {
        const file = join(tempDir(), 'chatgraph.sqlite');
        const store = SqliteStore.open(file);
        const texts = [...first, ...second].map((list) => [...list]);
        await store.upsert(first.map((list, c) => batch(c, list)));
        if (second.length > 0)
          await store.upsert(second.map((list, i) => batch(first.length + i, list)));
        for (const [pick, text] of appends) {
          const c = pick % texts.length;
          const before = texts[c] ?? [];
          expect(await store.patch(batch(c, before), batch(c, [...before, text]), false)).toBe(
            'written',
          );
          texts[c] = [...before, text];
        }
        await store.close();
        const db = openReadonly(file, undefined);
        try {
          for (const asked of [['apple', 'banana'], ['banana', 'cherry'], WORDS]) {
            const holds = (text: string): boolean =>
              asked.every((word) => text.split(' ').includes(word));
            const text = asked.join(' ');
            const result = searchSqlite(db, { text, limit: 1 });
            expect({ text, count: result.conversationCount, matches: result.matches }).toEqual({
              text,
              count: texts.filter((list) => list.some(holds)).length,
              matches: texts.flat().filter(holds).length,
            });
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 15 },
    );
  });
});
