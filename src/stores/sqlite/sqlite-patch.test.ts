import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { SessionConversion, convertSession } from '../../live/convert-session.js';
import type { HashedBatch } from '../store.js';
import { SqliteStore } from './sqlite-store.js';

// A session's lines: a prompt, a reply split over two lines (one message.id), a tool call, and
// its result on a later line, as Claude Code writes them.
const LINES: unknown[] = [
  {
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:00Z',
    message: { role: 'user', content: 'plan the zeppelin route' },
  },
  {
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:01Z',
    message: {
      id: 'm1',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'first half alpha' }],
    },
  },
  {
    type: 'assistant',
    uuid: 'a2',
    parentUuid: 'a1',
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:02Z',
    message: {
      id: 'm1',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'second half omega' }],
    },
  },
  {
    type: 'assistant',
    uuid: 'a3',
    parentUuid: 'a2',
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:03Z',
    message: {
      id: 'm2',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a.txt' } }],
    },
  },
  {
    type: 'user',
    uuid: 'r1',
    parentUuid: 'a3',
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:04Z',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: 'the file says quasar' }],
    },
  },
  {
    type: 'user',
    uuid: 'u2',
    parentUuid: 'r1',
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:05Z',
    message: { role: 'user', content: 'and the return trip' },
  },
];

const SOURCE = {
  entryPath: '-p/s1.jsonl',
  displayPath: 'projects/-p/s1.jsonl',
  variant: 'session',
  checksum: 'sha256:0',
  importId: 'import:live:projects/-p/s1.jsonl',
  importedAt: '2026-01-01T10:00:00.000000Z',
  deep: false,
};

function batchOf(lines: readonly unknown[]): HashedBatch {
  const [conversation] = convertSession(lines, SOURCE, () => undefined);
  if (!conversation) throw new Error('no conversation');
  return { ...conversation.batch, hash: conversation.contentHash };
}

// One conversion fed each step's new lines, as `watch` does: unchanged messages' nodes and
// edges are the previous batch's objects, which the patch skips by identity.
function grower(): (lines: readonly unknown[]) => HashedBatch {
  const conversion = new SessionConversion(SOURCE);
  let read = 0;
  return (lines) => {
    const [conversation] = conversion.convert(lines.slice(read), SOURCE, () => undefined);
    read = lines.length;
    if (!conversation) throw new Error('no conversation');
    return { ...conversation.batch, hash: conversation.contentHash };
  };
}

async function snapshot(store: SqliteStore, owner: string, words: readonly string[]) {
  const hits: Record<string, number> = {};
  for (const word of words)
    hits[word] = (await store.search({ text: word, mode: 'keyword' })).hits.length;
  const graph = await store.subgraph(owner);
  const sort = (items: readonly unknown[]) => items.map((i) => JSON.stringify(i)).sort();
  return {
    hits,
    nodes: sort(graph?.nodes ?? []),
    edges: sort(graph?.edges ?? []),
    counts: await store.counts(),
    stats: await store.stats(),
  };
}

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

const WORDS = ['zeppelin', 'alpha', 'omega', 'quasar', 'return', 'rewritten'];

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
      let previous = grown(LINES.slice(0, 1));
      // Another conversation written after it: a rewrite gives its rows new ids past these.
      const other = batchOf(LINES.map((l) => ({ ...(l as object), sessionId: 's2' })));
      for (const store of [whole, patched]) await store.upsert([previous, other]);
      const rowId = firstRowId(join(dir, 'patched.sqlite'));
      // Each step grows the session by a line: a new message, a split reply merged into one
      // (its text changes), a tool call, its result arriving later (the call's output changes).
      for (let n = 2; n <= LINES.length; n++) {
        const next = grown(LINES.slice(0, n));
        await whole.upsert([next]);
        expect(await patched.patch(previous, next, false)).toBe('written');
        expect(await snapshot(patched, next.owner, WORDS)).toEqual(
          await snapshot(whole, next.owner, WORDS),
        );
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
});
