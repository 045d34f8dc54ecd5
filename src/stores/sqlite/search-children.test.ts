import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchesOf, knownConversations } from '../../../test/support/graph-fixtures.js';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { cleanUp } from '../../../test/support/clean-up.js';
import { QueryLimitError } from '../query-limits.js';
import { ChildSearchResult, SearchChildren } from './search-children.js';
import { SqliteStore } from './sqlite-store.js';
import { StoreDamagedError } from './store-damage.js';
import { openReadonly } from './open-readonly.js';

// A search in a child never reads through the parent's connection.
const notHere = (): never => {
  throw new Error('a child search used the parent’s connection');
};

describe('keyword searches in child processes', () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = tempDir();
    file = join(dir, 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert(batchesOf(await knownConversations()));
    await store.close();
  });

  it('answers a search with the store’s result, checked as it comes over IPC', async () => {
    const children = new SearchChildren(file, undefined, notHere);
    try {
      const result = await children.run({ text: 'sourdough', limit: 3 });
      expect(result.mode).toBe('keyword');
      expect(result.hits.length).toBeGreaterThan(0);
      expect(result.hits.length).toBeLessThanOrEqual(3);
      for (const hit of result.hits) {
        expect(typeof hit.conversationId).toBe('string');
        expect(typeof hit.score).toBe('number');
      }
    } finally {
      children.close();
    }
  });

  it('cuts snippets only for the first rows of each conversation asked for, here and in a child (issue 46)', async () => {
    const children = new SearchChildren(file, undefined, notHere);
    const db = openReadonly(file, undefined);
    const here = new SearchChildren(file, undefined, () => db, {
      deadlineLine: (message: string) => `${message}\n`,
    });
    const query = { text: 'answer OR sourdough OR hours', limit: 40 };
    try {
      const all = await here.run(query);
      const seen = new Map<string, number>();
      const firsts = all.hits.map((hit) => {
        const n = seen.get(hit.conversationId) ?? 0;
        seen.set(hit.conversationId, n + 1);
        return n;
      });
      // The fixture has a conversation matching in several rows, or this shows nothing.
      expect(firsts.some((n) => n >= 1)).toBe(true);
      expect(all.hits.every((hit) => hit.snippet !== '')).toBe(true);
      for (const run of [here, children]) {
        const one = await run.run({ ...query, snippetsPerConversation: 1 });
        expect(one.hits.map(({ snippet: _, ...hit }) => hit)).toEqual(
          all.hits.map(({ snippet: _, ...hit }) => hit),
        );
        expect(one.hits.map((hit) => hit.snippet)).toEqual(
          all.hits.map((hit, i) => (firsts[i] === 0 ? hit.snippet : '')),
        );
      }
    } finally {
      children.close();
      db.close();
    }
  });

  it('answers the same in a one-shot process’s own thread (issue 46), and says a damaged store as the child does', async () => {
    const children = new SearchChildren(file, undefined, notHere);
    const db = openReadonly(file, undefined);
    const damaged = join(dir, 'damaged-here.sqlite');
    writeFileSync(damaged, 'not a database, only text long enough to be read\n'.repeat(100));
    const query = { text: 'sourdough OR starter', limit: 5, offset: 1 };
    try {
      const inChild = await children.run(query);
      const here_ = { deadlineLine: (message: string) => `${message}\n` };
      const here = await new SearchChildren(file, undefined, () => db, here_).run(query);
      expect(here).toEqual(inChild);
      const failed = await new SearchChildren(
        damaged,
        undefined,
        () => openReadonly(damaged, undefined),
        here_,
      )
        .run({ text: 'starter' })
        .catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(StoreDamagedError);
    } finally {
      children.close();
      db.close();
    }
  });

  it('reports a store the child finds damaged at its open as the store’s damage, with the way out', async () => {
    const damaged = join(dir, 'damaged.sqlite');
    writeFileSync(
      damaged,
      'this is not a database, only text long enough to be read\n'.repeat(100),
    );
    const children = new SearchChildren(damaged, undefined, notHere);
    try {
      const failed = await children.run({ text: 'starter' }).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(StoreDamagedError);
      expect((failed as Error).message).toMatch(
        /^the store .*damaged\.sqlite is damaged \(file is not a database\): run "chatgraph reindex"/,
      );
    } finally {
      children.close();
    }
  });

  describe('with a child slow to start', () => {
    const hook = (): string => join(dir, 'slow-start.mjs');
    let before: string | undefined;
    beforeAll(() => {
      // Each search child this test starts sleeps 5 s before it runs (a test hook, through the
      // options node passes to every process it starts): far past the deadline asked.
      writeFileSync(
        hook(),
        'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5000);\n',
      );
      before = process.env.NODE_OPTIONS;
      process.env.NODE_OPTIONS = `${before ?? ''} --import ${hook()}`.trim();
    });
    afterAll(
      cleanUp(() => {
        if (before === undefined) delete process.env.NODE_OPTIONS;
        else process.env.NODE_OPTIONS = before;
      }),
    );

    it('stops the search at its deadline while the child is still starting', async () => {
      const children = new SearchChildren(file, undefined, notHere);
      try {
        const failed = await children.run({ text: 'the' }, 0.5).catch((error: unknown) => error);
        expect(failed).toBeInstanceOf(QueryLimitError);
        expect((failed as Error).message).toMatch(
          /^the search ran longer than 0\.5 s and was stopped/,
        );
      } finally {
        children.close();
      }
    });
  });
});

describe('a search child’s answer', () => {
  const hit = {
    conversationId: 'c1',
    platformConversationId: 'p1',
    title: 'Bread',
    source: 'chatgpt',
    messageId: 'm1',
    role: 'user',
    createdAt: '2026-01-01T00:00:00Z',
    snippet: 'sourdough',
    score: 1,
  };
  const result = { mode: 'keyword', matches: 1, matchesCapped: false, ranked: 1 };

  it('crosses whole when it holds the fields the parent knows', () => {
    expect(ChildSearchResult.parse({ ...result, hits: [hit] })).toEqual({ ...result, hits: [hit] });
  });

  it('fails loudly on a field the parent does not list, rather than dropping it', () => {
    const parsed = ChildSearchResult.safeParse({ ...result, hits: [{ ...hit, newField: 1 }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.path).toEqual(['hits', 0]);
    expect(ChildSearchResult.safeParse({ ...result, hits: [hit], extra: true }).success).toBe(
      false,
    );
  });
});
