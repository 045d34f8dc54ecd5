import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph } from './support/run-cli.js';
import { SessionLog } from './support/session-log.js';
import { startCli, type WatchProcess } from './support/watch-cli.js';

/**
 * End to end: `watch` killed (-9) right after an append was written to the store (before the
 * quiet moment that settles it), then started again with nothing new in the log. The restarted
 * watcher reads the log whole and writes its graph whole (each step's stand-in version is its
 * own, so it is not taken as unchanged): the session's Document ends as a fresh `import` of the
 * log makes it, the appended message in it.
 */

const running: WatchProcess[] = [];
afterEach(async () => {
  for (const watch of running.splice(0)) await watch.stop('SIGKILL');
});

function watch(folder: string, data: string): WatchProcess {
  const process_ = startCli(['watch', folder, '--data-dir', data]);
  running.push(process_);
  return process_;
}

async function documentOf(data: string, platformId: string): Promise<unknown> {
  const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
  try {
    const info = await store.conversation(platformId);
    if (!info) return undefined;
    const graph = await store.subgraph(info.id);
    return graph?.nodes.find((n) => n.label === 'Document')?.properties.content;
  } finally {
    await store.close();
  }
}

// The log written, watched, appended to, watch killed and restarted with nothing new.
async function killedAfterAppend(): Promise<{ folder: string; data: string }> {
  const folder = tempDir();
  const data = tempDir();
  mkdirSync(join(folder, '-work-app'));
  const log = new SessionLog(join(folder, '-work-app', 'sess-d.jsonl'), 'sess-d');
  log.append('plan the zeppelin route');
  log.append('north, then east');
  let w = watch(folder, data);
  await w.waitFor(/^following /);
  const at = w.lines.length;
  log.append('and the quokka detour');
  await w.waitFor(/^imported .*sess-d/, at);
  // Killed at once: the settle waits for a quiet second.
  await w.stop('SIGKILL');
  w = watch(folder, data);
  await w.waitFor(/^following /);
  await w.stop();
  return { folder, data };
}

describe('chatgraph watch killed between an append and its settle', () => {
  it('has the Document a fresh import has, once restarted (nothing new in the log)', async () => {
    const { folder, data } = await killedAfterAppend();
    const fresh = tempDir();
    expect((await chatgraph('import', folder, '--data-dir', fresh, '-q')).code).toBe(0);
    const expected = await documentOf(fresh, 'sess-d');
    expect(expected).toContain('quokka');
    expect(await documentOf(data, 'sess-d')).toEqual(expected);
  }, 60_000);

  it('has it after an import of the same log into the same data folder, at the latest', async () => {
    const { folder, data } = await killedAfterAppend();
    expect((await chatgraph('import', folder, '--data-dir', data, '-q')).code).toBe(0);
    expect(await documentOf(data, 'sess-d')).toContain('quokka');
  }, 60_000);
});
