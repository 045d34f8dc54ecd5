import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
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

function watch(folder: string, data: string): WatchProcess {
  const w = startCli(['watch', folder, '--data-dir', data]);
  running.push(w);
  return w;
}

// The bundle's conversation files without their provenance (import time, checksum).
function bundleOf(data: string): unknown[] {
  const dir = join(data, 'bundle', 'conversations');
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const { import_metadata: _meta, ...rest } = JSON.parse(
        readFileSync(join(dir, name), 'utf8'),
      ) as Record<string, unknown>;
      return rest;
    });
}

async function sameAsImport(folder: string, data: string): Promise<void> {
  const fresh = tempDir();
  expect((await chatgraph('import', folder, '--data-dir', fresh, '-q')).code).toBe(0);
  expect(await messagesOf(data, 'sess-s')).toEqual(await messagesOf(fresh, 'sess-s'));
  expect(bundleOf(data)).toEqual(bundleOf(fresh));
  expect(await graphOf(data)).toEqual(await graphOf(fresh));
}

describe('two logs with one session id under watch', () => {
  it('keeps the most recent copy leading and merges in what the other log adds, as import does, across a restart', async () => {
    const folder = tempDir();
    const data = tempDir();
    mkdirSync(join(folder, '-work-app'));
    const first = new SessionLog(join(folder, '-work-app', 'aaa.jsonl'), 'sess-s', 'a');
    for (const text of ['plan the trip', 'by train', 'which one', 'the night train'])
      first.append(text);
    let w = watch(folder, data);
    await w.waitFor(/^following /);
    // Resumed into another file: the same entries again, and new ones (more recent).
    let at = w.lines.length;
    const resumed = first.copyTo(join(folder, '-work-app', 'bbb.jsonl'), 'b');
    resumed.append('resumed: and back');
    resumed.append('the morning train');
    await w.waitFor(/^imported .*bbb\.jsonl: 6 lines? read.*\(6 messages\)/, at);
    // The first log gains a line older than the resumed copy's last: the resumed copy leads,
    // and the line only the first log has is merged in (nothing imported is ever dropped).
    at = w.lines.length;
    first.append('an older branch');
    expect(await w.waitFor(/^imported .*aaa\.jsonl: 1 line/, at)).toMatch(/1 conversation written/);
    expect(await messagesOf(data, 'sess-s')).toContain('the morning train');
    expect(await messagesOf(data, 'sess-s')).toContain('an older branch');
    at = w.lines.length;
    resumed.append('resumed goes on');
    await w.waitFor(/^imported .*bbb\.jsonl: 1 lines? read, 1 conversation.*\(7 messages\)/, at);
    expect(await w.stop()).toBe(0);
    await sameAsImport(folder, data);

    // Started again, the first log (not in memory) grows, still older: merged in the same way.
    w = watch(folder, data);
    await w.waitFor(/^following /);
    at = w.lines.length;
    first.append('older still');
    expect(await w.waitFor(/^imported .*aaa\.jsonl: /, at)).toMatch(/1 conversation written/);
    expect(await messagesOf(data, 'sess-s')).toContain('resumed goes on');
    expect(await messagesOf(data, 'sess-s')).toContain('older still');
    expect(await w.stop()).toBe(0);
    await sameAsImport(folder, data);
  }, 90_000);
});
