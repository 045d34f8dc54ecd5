// Issue 46, tenth pass: `a -b` where some conversations' words hold both `a` and `b` counts
// those conversations from the matches of `a -b` inside their segments' rowid ranges (one
// masked reading of message_fts), not by joining every match to its conversation. Each
// conversation here is one way a shortcut could miscount: every `apple` with a `banana`, one
// alone, an `apple` alone in a live-appended segment, and segments merged across other
// conversations' appends (their ranges hold other conversations' messages, matches included).
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONVERSATION_SEGMENTS } from '../src/stores/sqlite/conversation-words.js';
import { openReadonly } from '../src/stores/sqlite/open-readonly.js';
import { searchSqlite } from '../src/stores/sqlite/sqlite-search.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { tempDir } from './support/convert-to-temp.js';
import { batch, type Text, watched, writtenInSteps } from './support/segment-stores.js';

// Written in three steps: `first`, then `second` (their rowids after every one of `first`'s),
// then the appends, one patch each in this order (each after every row before it).
const FIRST: Record<number, Text[]> = {
  // Every apple with a banana: no match.
  0: ['apple banana', 'cherry'],
  // One apple alone: a match.
  1: ['apple banana', 'apple'],
  // An apple alone, the banana in another message: a match.
  2: ['apple', 'banana'],
  // Then an apple alone appended, a segment of its own (the older holds more messages).
  3: ['apple banana', 'cherry'],
  // Then an apple with a banana appended: merged with the first segment, whose range then holds
  // the messages of c5, c6, c7 and c3's append; none is c4's own apple alone: no match.
  4: ['apple banana'],
  // Then an apple alone appended, merged: its range holds c5's and c7's apples alone first.
  6: ['apple banana'],
};
const SECOND: Record<number, Text[]> = { 5: ['apple cherry'], 7: ['apple'] };
const APPENDS: [c: number, text: string][] = [
  [3, 'apple'],
  [4, 'apple banana'],
  [6, 'apple'],
];

const written = (): Promise<string> => writtenInSteps(FIRST, SECOND, APPENDS);

describe('the conversations of a -b whose words hold both', () => {
  it('are counted exactly from the matches in those segments, not match by match', async () => {
    const file = await written();
    const db = openReadonly(file, undefined);
    try {
      // c3 has two segments; c4's and c6's were merged across other conversations' rows.
      const segments = db
        .prepare(
          `SELECT n, count(*) AS segments, sum(hi - lo + 1 > messages) AS merged
           FROM ${CONVERSATION_SEGMENTS} GROUP BY n ORDER BY n`,
        )
        .raw()
        .all();
      expect(segments.map((row) => (row as number[]).slice(1))).toEqual([
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
      const count = (text: string): number | undefined =>
        searchSqlite(db, { text, limit: 1 }).conversationCount;
      // c1, c2, c3 (its append), c5, c6 (its append, after c5's and c7's apples), c7.
      expect(count('apple -banana')).toBe(6);
      expect(count('ap* -banana')).toBe(6);
      expect(count('apple -banana -zeppelin')).toBe(6);
      // c2's banana alone.
      expect(count('banana -apple')).toBe(1);
      // c0's and c3's cherry alone (c5's is with an apple).
      expect(count('cherry -apple')).toBe(2);
      expect(statements.some((sql) => sql.includes('substr(@mask'))).toBe(true);
      expect(statements.some((sql) => /count\(DISTINCT k\.n\)/.test(sql))).toBe(false);
      expect(searchSqlite(db, { text: 'apple -banana', limit: 20 }).matches).toBe(6);
      // The window is scored by `apple` alone, to the same scores as bm25 of `apple NOT banana`.
      const scores = db
        .prepare(
          `SELECT -bm25(message_fts) FROM message_fts WHERE message_fts MATCH '"apple" NOT "banana"'
           ORDER BY bm25(message_fts), rowid DESC`,
        )
        .pluck()
        .all();
      expect(
        searchSqlite(db, { text: 'apple -banana', limit: 20 }).hits.map((hit) => hit.score),
      ).toEqual(scores);
      expect(statements.some((sql) => sql.includes('MATCH @include'))).toBe(true);
    } finally {
      db.close();
    }
  });

  it('are counted match by match when attachment text matches', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert([
      // The message holds both, its attachment an apple alone: a match.
      batch(0, [['apple banana', 'apple pie']]),
      batch(1, ['apple banana']),
      batch(2, ['apple', 'banana']),
    ]);
    await store.close();
    const db = openReadonly(file, undefined);
    try {
      const statements = watched(db);
      expect(searchSqlite(db, { text: 'apple -banana', limit: 1 }).conversationCount).toBe(2);
      expect(statements.some((sql) => sql.includes('substr(@mask'))).toBe(false);
    } finally {
      db.close();
    }
  });

  it('are counted as the messages holding one word without the other say, on random stores', async () => {
    const WORDS = ['apple', 'banana', 'cherry'];
    const words = fc.subarray(WORDS, { minLength: 1 }).map((list) => list.join(' '));
    // Conversations written in two steps, then appends interleaved between them (segments of
    // their own, or merged across other conversations' rows).
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
          for (const a of WORDS)
            for (const b of WORDS) {
              if (a === b) continue;
              const holding = texts.filter((list) =>
                list.some((text) => text.split(' ').includes(a) && !text.split(' ').includes(b)),
              ).length;
              const text = `${a} -${b}`;
              expect({
                text,
                count: searchSqlite(db, { text, limit: 1 }).conversationCount,
              }).toEqual({ text, count: holding });
            }
        } finally {
          db.close();
        }
      }),
      { numRuns: 15 },
    );
  });
});
