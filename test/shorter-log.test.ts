import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { importExports } from '../src/data-folder/import-exports.js';
import type { FollowEvent } from '../src/live/follow-event.js';
import { followFolders } from '../src/live/follower.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { tempDir } from './support/convert-to-temp.js';
import {
  FULL_LOG,
  SHORTER_LOG,
  bundleConversations,
  expectLogMerged,
  expectLogMergedInBundle,
  expectPamValid,
  outcome,
  sessionLine,
} from './support/merge-scenarios.js';
import { Folder } from '../src/folder/folder.js';

async function withStore(data: string, use: (store: SqliteStore) => Promise<void>): Promise<void> {
  const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
  try {
    await use(store);
  } finally {
    await store.close();
  }
}

function projectsWithLog(lines: readonly string[]): { projects: string; log: string } {
  const projects = tempDir('chatgraph-shorter-log-');
  mkdirSync(join(projects, '-work-app'));
  const log = join(projects, '-work-app', 'sess-cut.jsonl');
  writeFileSync(log, lines.join(''));
  return { projects, log };
}

describe('a Claude Code log cut short or rewritten shorter (issue 23, break 2)', () => {
  it('import keeps what was imported and adds what is new', async () => {
    const { projects, log } = projectsWithLog(FULL_LOG);
    const data = join(tempDir(), 'data');
    await importExports(new Folder(data), [projects]);
    expectPamValid(data);
    writeFileSync(log, SHORTER_LOG.join(''));
    const second = await importExports(new Folder(data), [projects]);
    expect(outcome(second)).toMatchObject({ created: 0, updated: 1 });
    expectPamValid(data);
    await withStore(data, expectLogMerged);
    expectLogMergedInBundle(data);
    // Cut to its first line: nothing to add, the stored copy is kept as it is.
    writeFileSync(log, FULL_LOG[0] ?? '');
    const third = await importExports(new Folder(data), [projects]);
    expect(outcome(third)).toMatchObject({ updated: 0, unchanged: 1, keptNewer: 1 });
    expectPamValid(data);
    await withStore(data, expectLogMerged);
    expectLogMergedInBundle(data);
  });

  it('watch keeps what was imported when the log is rewritten shorter, then adds what is new', async () => {
    const { projects, log } = projectsWithLog([]);
    const data = join(tempDir(), 'data');
    const waiters: ((event: FollowEvent) => void)[] = [];
    const events: FollowEvent[] = [];
    const start = () =>
      followFolders(new Folder(data), {
        folders: [projects],
        indexDelayMilliseconds: 0,
        pollMilliseconds: 50,
        settleMilliseconds: 50,
        onEvent: (event) => {
          events.push(event);
          if (event.kind === 'problem') throw new Error(event.message);
          if (event.kind === 'imported') for (const w of waiters.splice(0)) w(event);
        },
      });
    const imported = () => new Promise((resolve) => waiters.push(resolve));
    let follower = await start();
    for (const line of FULL_LOG) {
      const next = imported();
      appendFileSync(log, line);
      await next;
    }
    // Rewritten shorter: its first two lines only.
    let next = imported();
    writeFileSync(log, SHORTER_LOG.slice(0, 2).join(''));
    await next;
    expect(events.some((e) => e.kind === 'rewritten')).toBe(true);
    next = imported();
    appendFileSync(log, SHORTER_LOG[2] ?? '');
    await next;
    await follower.stop();
    await withStore(data, expectLogMerged);
    expectLogMergedInBundle(data);
    expectPamValid(data);

    // Cut short again while no watcher ran: a new watcher reads it whole, and keeps all.
    writeFileSync(log, FULL_LOG[0] ?? '');
    follower = await start();
    next = imported();
    appendFileSync(log, sessionLine('sess-cut', 7, 'and the final flamingo', 0));
    await next;
    await follower.stop();
    await withStore(data, async (store) => {
      const all = (await store.thread('sess-cut', { allBranches: true })).map((m) => m.content);
      expect(all).toContain('watch the dingo');
      expect(all).toContain('and the final flamingo');
      expect(all).toHaveLength(6);
    });
    expectPamValid(data);
  }, 60_000);

  it('import keeps what was imported when one session is split over several logs in one import', async () => {
    const lines = (entries: [number, number | null][]) =>
      entries.map(([n, parent]) => sessionLine('sess-x', n, `text ${n}`, parent)).join('');
    const projects = tempDir('chatgraph-two-logs-');
    mkdirSync(join(projects, '-work-app'));
    const a = join(projects, '-work-app', 'a.jsonl');
    const b = join(projects, '-work-app', 'b.jsonl');
    writeFileSync(
      a,
      lines([
        [0, null],
        [1, 0],
        [2, 1],
        [3, 2],
        [4, 3],
        [5, 4],
      ]),
    );
    const data = join(tempDir(), 'data');
    await importExports(new Folder(data), [projects]);
    // a.jsonl cut short; b.jsonl a later log of the same session that goes on another way.
    writeFileSync(
      a,
      lines([
        [0, null],
        [1, 0],
      ]),
    );
    writeFileSync(
      b,
      lines([
        [0, null],
        [1, 0],
        [2, 1],
        [9, 2],
      ]),
    );
    const second = await importExports(new Folder(data), [projects]);
    expect(second.written.duplicates).toBe(1);
    const texts = ['text 0', 'text 1', 'text 2', 'text 3', 'text 4', 'text 5', 'text 9'];
    await withStore(data, async (store) => {
      const all = (await store.thread('sess-x', { allBranches: true })).map((m) => m.content);
      expect([...all].sort()).toEqual(texts);
    });
    const [conversation] = bundleConversations(data).values();
    expect(conversation?.messages.map((m) => m.content?.text).sort()).toEqual(texts);
    expectPamValid(data);
  });
});
