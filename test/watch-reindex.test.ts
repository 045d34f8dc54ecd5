import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph } from './support/run-cli.js';
import { SessionLog, graphOf, messagesOf } from './support/session-log.js';
import { startCli, type WatchProcess } from './support/watch-cli.js';

const running: WatchProcess[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) await watch.stop('SIGKILL');
});

describe('chatgraph reindex while watch follows a log', () => {
  it('leaves the graph a fresh import of the logs makes: one Import per log, one IMPORTED edge per conversation', async () => {
    const folder = tempDir();
    const data = tempDir();
    mkdirSync(join(folder, '-work-app'));
    const log = new SessionLog(join(folder, '-work-app', 'sess-r.jsonl'), 'sess-r');
    log.append('where is the lighthouse');
    log.append('on the northern cape');
    const w = startCli(['watch', folder, '--data-dir', data]);
    running.push(w);
    await w.waitFor(/^following /);
    let at = w.lines.length;
    log.append('how tall is it');
    await w.waitFor(/^imported .*sess-r\.jsonl: 1 lines? read.*\(3 messages\)/, at);
    // A reindex while watch runs (it waits for the write lock, or watch waits for it)…
    expect((await chatgraph('reindex', '--data-dir', data, '-q')).code).toBe(0);
    // …and the log goes on growing.
    at = w.lines.length;
    log.append('forty metres');
    await w.waitFor(/^imported .*sess-r\.jsonl: 1 lines? read.*\(4 messages\)/, at);
    at = w.lines.length;
    log.append('and the light');
    await w.waitFor(/^imported .*sess-r\.jsonl: 1 lines? read.*\(5 messages\)/, at);
    expect(await w.stop()).toBe(0);
    expect(await messagesOf(data, 'sess-r')).toHaveLength(5);

    const fresh = tempDir();
    expect((await chatgraph('import', folder, '--data-dir', fresh, '-q')).code).toBe(0);
    const graph = await graphOf(data);
    expect(graph).toEqual(await graphOf(fresh));
    expect(graph).toMatchObject({ counts: { nodes: { Import: 1 }, edges: { IMPORTED: 1 } } });
    // And a reindex of what watch wrote makes it again.
    expect((await chatgraph('reindex', '--data-dir', data, '-q')).code).toBe(0);
    expect(await graphOf(data, false)).toEqual(await graphOf(fresh, false));
  }, 90_000);
});
