import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import {
  LINES,
  WORDS,
  batchOf,
  grower,
  importsAfterDrop,
  snapshot,
} from '../../../test/support/patch-fixtures.js';
import { SqliteStore } from './sqlite-store.js';
import { grainMismatches } from '../../../test/support/grain-check.js';

// The first message's row id: kept by a patch, new after a rewrite (its rows deleted and inserted).
function firstRowId(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(`SELECT rowid FROM "Message" WHERE content = 'plan the zeppelin route'`)
      .pluck()
      .get() as number;
  } finally {
    db.close();
  }
}

describe('patching a grown conversation into the SQLite store', () => {
  it.each([
    ['converted afresh at each step', () => batchOf],
    ['converted as it grows', grower],
  ])(
    'leaves the store exactly as rewriting the conversation whole would, line after line (%s)',
    async (_, make) => {
      const grown = make();
      const dir = mkdtempSync(join(tmpdir(), 'chatgraph-patch-'));
      const whole = SqliteStore.open(join(dir, 'whole.sqlite'));
      const patched = SqliteStore.open(join(dir, 'patched.sqlite'));
      // Each step's Import is the log's checksum then: its IMPORTED edge moves at every append.
      const importOf = (n: number) => `import:sha256:${n}`;
      let previous = grown(LINES.slice(0, 1), importOf(1));
      // Another conversation written after it: a rewrite gives its rows new ids past these.
      const other = batchOf(LINES.map((l) => ({ ...(l as object), sessionId: 's2' })));
      for (const store of [whole, patched]) await store.upsert([previous, other]);
      const rowId = firstRowId(join(dir, 'patched.sqlite'));
      // Each step grows the session by a line: a new message, a split reply merged into one
      // (its text changes), a tool call, its result arriving later (the call's output changes);
      // the IMPORTED edge moves to the step's Import, and that too is patched.
      for (let n = 2; n <= LINES.length; n++) {
        const next = grown(LINES.slice(0, n), importOf(n));
        await whole.upsert([next]);
        expect(await patched.patch(previous, next, false)).toBe('written');
        expect(await snapshot(patched, next.owner, WORDS)).toEqual(
          await snapshot(whole, next.owner, WORDS),
        );
        // Each conversation's words follow a live append (issue 46, fifth pass).
        expect(grainMismatches(join(dir, 'patched.sqlite'))).toEqual([]);
        previous = next;
      }
      // The merged reply holds both halves (once in each conversation).
      expect((await patched.search({ text: 'omega alpha', mode: 'keyword' })).hits).toHaveLength(2);
      // Patched, not rewritten: the rows written first are the same rows.
      expect(firstRowId(join(dir, 'patched.sqlite'))).toBe(rowId);
      expect(firstRowId(join(dir, 'whole.sqlite'))).not.toBe(rowId);
      expect(await patched.patch(previous, previous, false)).toBe('unchanged');
      // Not additive (a rewritten log): the conversation is rewritten whole.
      const rewritten = batchOf([
        { ...(LINES[0] as object), message: { role: 'user', content: 'a rewritten start' } },
      ]);
      await whole.upsert([rewritten]);
      await patched.patch(previous, rewritten, false);
      expect(await snapshot(patched, rewritten.owner, WORDS)).toEqual(
        await snapshot(whole, rewritten.owner, WORDS),
      );
      // The other conversation's zeppelin only: the rewritten one's words are gone.
      expect((await patched.search({ text: 'zeppelin', mode: 'keyword' })).hits).toHaveLength(1);
      expect((await patched.search({ text: 'zeppelin', mode: 'keyword' })).conversationCount).toBe(
        1,
      );
      expect(grainMismatches(join(dir, 'patched.sqlite'))).toEqual([]);
      await whole.close();
      await patched.close();
    },
  );

  it('rewrites whole when the store does not hold the previous batch (another writer changed it)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatgraph-patch-'));
    const store = SqliteStore.open(join(dir, 'store.sqlite'));
    const first = batchOf(LINES.slice(0, 2));
    const stale = batchOf(LINES.slice(0, 1));
    await store.upsert([first]);
    const next = batchOf(LINES);
    await store.patch(stale, next, false);
    const fresh = SqliteStore.open(join(dir, 'fresh.sqlite'));
    await fresh.upsert([next]);
    expect(await snapshot(store, next.owner, WORDS)).toEqual(
      await snapshot(fresh, next.owner, WORDS),
    );
    await store.close();
    await fresh.close();
  });

  it("drops a followed log's earlier Imports once no conversation hangs from them", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatgraph-patch-'));
    const store = SqliteStore.open(join(dir, 's.sqlite'));
    expect(await importsAfterDrop(store)).toEqual(['import:sha256:2', 'import:sha256:9']);
    await store.close();
  });
});
