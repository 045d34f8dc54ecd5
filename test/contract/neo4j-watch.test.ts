import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { followFolders } from '../../src/live/follower.js';
import type { FollowEvent } from '../../src/live/follow-event.js';
import { Neo4jStore } from '../../src/stores/neo4j/neo4j-store.js';
import { useNeo4j } from '../support/neo4j-shared.js';
import { SessionLog } from '../support/session-log.js';
import { Folder } from '../../src/folder/folder.js';

const server = useNeo4j();

describe('watch into Neo4j', () => {
  it('makes each appended line searchable in Neo4j at once, and settles the Document as import makes it', async () => {
    const setup = await Neo4jStore.open(server.target);
    await setup.clear();
    await setup.close();
    const projects = mkdtempSync(join(tmpdir(), 'chatgraph-neo4j-watch-'));
    mkdirSync(join(projects, '-work-app'));
    const log = new SessionLog(join(projects, '-work-app', 'sess-n.jsonl'), 'sess-n');
    log.append('plan the zeppelin route');
    log.append('over the alps');
    const waiters: ((event: FollowEvent) => void)[] = [];
    const follower = await followFolders(
      new Folder(mkdtempSync(join(tmpdir(), 'chatgraph-neo4j-watch-data-')), {
        neo4j: server.target,
      }),
      {
        folders: [projects], // No settle while the lines are appended: what is searchable came as deltas.
        indexDelayMilliseconds: 60_000,
        onEvent: (event) => {
          if (event.kind === 'problem') throw new Error(event.message);
          if (event.kind === 'imported') for (const w of waiters.splice(0)) w(event);
        },
      },
    );
    const reader = await Neo4jStore.open(server.target);
    try {
      const words = ['quokka', 'marmot', 'ibex'];
      for (const word of words) {
        const imported = new Promise((resolve) => waiters.push(resolve));
        log.append(`and the ${word} detour`);
        await imported;
        const { hits } = await reader.search({ text: word, mode: 'keyword' });
        expect(hits.map((h) => h.platformConversationId)).toEqual(['sess-n']);
      }
      const id = (await reader.conversation('sess-n'))?.id ?? '';
      const unsettled = await reader.subgraph(id);
      const documentOf = (graph: typeof unsettled) =>
        String(graph?.nodes.find((n) => n.label === 'Document')?.properties.content ?? '');
      // Appends leave the Document as it was settled (the first pass): whole-thread text waits.
      expect(documentOf(unsettled)).not.toContain('quokka');
      await follower.stop();
      const settled = await reader.subgraph(id);
      for (const word of ['zeppelin', ...words]) expect(documentOf(settled)).toContain(word);
      expect(settled?.nodes.filter((n) => n.label === 'Message')).toHaveLength(5);
      const thread = await reader.thread(id, {});
      expect(thread.map((m) => m.content)).toEqual([
        'plan the zeppelin route',
        'over the alps',
        ...words.map((w) => `and the ${w} detour`),
      ]);
    } finally {
      await reader.close();
    }
  }, 120_000);
});
