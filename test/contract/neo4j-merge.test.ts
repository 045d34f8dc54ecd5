import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importExports } from '../../src/data-folder/import-exports.js';
import type { FollowEvent } from '../../src/live/follow-event.js';
import { followFolders } from '../../src/live/follower.js';
import { Neo4jStore } from '../../src/stores/neo4j/neo4j-store.js';
import { tempDir } from '../support/convert-to-temp.js';
import {
  FULL_LOG,
  SHORTER_LOG,
  expectLogMerged,
  expectLogMergedInBundle,
  expectMerged,
  expectPamValid,
  outcome,
  sessionLine,
  writeChatgptCopies,
} from '../support/merge-scenarios.js';
import { useNeo4j } from '../support/neo4j-shared.js';
import { Folder } from '../../src/folder/folder.js';

const server = useNeo4j();

async function cleared(): Promise<void> {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  await store.close();
}

async function withReader(use: (store: Neo4jStore) => Promise<void>): Promise<void> {
  const store = await Neo4jStore.open(server.target);
  try {
    await use(store);
  } finally {
    await store.close();
  }
}

describe('Neo4j: copies merged, nothing lost (issue 23, breaks 1 and 2)', () => {
  it('an older export after a newer one keeps the newer copy and merges in what only it had', async () => {
    await cleared();
    const dir = tempDir();
    const { newer, older } = writeChatgptCopies(dir);
    const data = join(dir, 'data');
    const neo4j = server.target;
    await importExports(new Folder(data, { neo4j: neo4j }), [newer]);
    expectPamValid(data);
    const second = await importExports(new Folder(data, { neo4j: neo4j }), [older]);
    expect(outcome(second)).toMatchObject({ created: 1, updated: 2, unchanged: 1, keptNewer: 3 });
    expectPamValid(data);
    await withReader(expectMerged);
    for (const input of [older, newer]) {
      const again = await importExports(new Folder(data, { neo4j: neo4j }), [input], {
        force: true,
      });
      expect(again.graph.written).toBe(0);
      expectPamValid(data);
    }
    await withReader(expectMerged);
  }, 120_000);

  it('a Claude Code log cut short keeps what was imported, by import and by watch', async () => {
    await cleared();
    const projects = tempDir('chatgraph-neo4j-merge-');
    mkdirSync(join(projects, '-work-app'));
    const log = join(projects, '-work-app', 'sess-cut.jsonl');
    writeFileSync(log, FULL_LOG.join(''));
    const data = join(tempDir(), 'data');
    const neo4j = server.target;
    await importExports(new Folder(data, { neo4j: neo4j }), [projects]);
    writeFileSync(log, SHORTER_LOG.join(''));
    await importExports(new Folder(data, { neo4j: neo4j }), [projects]);
    expectPamValid(data);
    await withReader(expectLogMerged);
    expectLogMergedInBundle(data);

    // Watched: written whole again, then cut short while the watcher runs.
    await cleared();
    const watched = join(tempDir(), 'watched');
    writeFileSync(log, '');
    const waiters: (() => void)[] = [];
    const follower = await followFolders(new Folder(watched, { neo4j: neo4j }), {
      folders: [projects],
      indexDelayMilliseconds: 0,
      pollMilliseconds: 50,
      settleMilliseconds: 50,
      onEvent: (event: FollowEvent) => {
        if (event.kind === 'problem') throw new Error(event.message);
        if (event.kind === 'imported') for (const w of waiters.splice(0)) w();
      },
    });
    const imported = () => new Promise<void>((resolve) => waiters.push(resolve));
    for (const line of FULL_LOG) {
      const next = imported();
      appendFileSync(log, line);
      await next;
    }
    let next = imported();
    writeFileSync(log, SHORTER_LOG.slice(0, 2).join(''));
    await next;
    next = imported();
    appendFileSync(log, SHORTER_LOG[2] ?? '');
    await next;
    await follower.stop();
    await withReader(expectLogMerged);
    expectLogMergedInBundle(watched);
    expectPamValid(watched);
  }, 120_000);

  it('several logs of one session in one import keep every message already imported', async () => {
    await cleared();
    const lines = (entries: [number, number | null][]) =>
      entries.map(([n, parent]) => sessionLine('sess-x', n, `text ${n}`, parent)).join('');
    const projects = tempDir('chatgraph-neo4j-two-logs-');
    mkdirSync(join(projects, '-work-app'));
    const a = join(projects, '-work-app', 'a.jsonl');
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
    const neo4j = server.target;
    await importExports(new Folder(data, { neo4j: neo4j }), [projects]);
    writeFileSync(
      a,
      lines([
        [0, null],
        [1, 0],
      ]),
    );
    writeFileSync(
      join(projects, '-work-app', 'b.jsonl'),
      lines([
        [0, null],
        [1, 0],
        [2, 1],
        [9, 2],
      ]),
    );
    await importExports(new Folder(data, { neo4j: neo4j }), [projects]);
    await withReader(async (store) => {
      const all = (await store.thread('sess-x', { allBranches: true })).map((m) => m.content);
      expect([...all].sort()).toEqual([0, 1, 2, 3, 4, 5, 9].map((n) => `text ${n}`));
    });
    expectPamValid(data);
  }, 120_000);
});
