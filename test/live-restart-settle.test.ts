import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GraphBatch } from '../src/graph/graph-batch.js';
import { SessionConversion, type SessionSource } from '../src/live/convert-session.js';
import { LiveStoreWriter } from '../src/pipeline/live-store-writer.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { LINES, WORDS, snapshot, SESSION_SOURCE } from './support/patch-fixtures.js';

/**
 * `watch` killed (-9) between an append and its settle, then started again on the same log: the
 * store holds the append, its Document as of the settle before. The new watcher's first write
 * (the log read whole, same bytes) has a stand-in version of its own, so it is written whole
 * rather than taken as unchanged, and the settle that follows leaves the Document import makes.
 */

const SOURCE: SessionSource = { ...SESSION_SOURCE, importId: 'import:sha256:0' };

// The source of the lines read so far (watch: checksum = sha256 of the bytes read).
const sourceOf = (n: number): SessionSource => ({
  ...SOURCE,
  checksum: `sha256:${n}`,
  importId: `import:sha256:${n}`,
});

describe('watch killed between an append and its settle', () => {
  it('leaves the store as importing the whole log would, once the restarted watcher settles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatgraph-live-restart-'));
    const file = join(dir, 'live.sqlite');
    const cut = 2;
    const all = LINES.length;

    // The first watcher: the first lines written and settled, then an append written as a
    // delta (Document kept as last settled), and killed before the next settle.
    {
      const store = SqliteStore.open(file);
      const writer = new LiveStoreWriter(store, false);
      const conversion = new SessionConversion(SOURCE);
      const [first] = conversion.convert(LINES.slice(0, cut), sourceOf(cut), () => undefined);
      if (!first) throw new Error('no conversation');
      await writer.step(first);
      await writer.settled(first, first.settle());
      const [grown] = conversion.convert(LINES.slice(cut), sourceOf(all), () => undefined);
      if (!grown) throw new Error('no conversation');
      expect(grown.delta).toBeDefined();
      await writer.step(grown);
      // kill -9: no settle; the store's last commit is the append's.
      await store.close();
    }

    // The restarted watcher: the log is not in memory, so it is read whole (same bytes, same
    // checksum), written, then settled at the next quiet moment.
    const store = SqliteStore.open(file);
    const writer = new LiveStoreWriter(store, false);
    const [again] = new SessionConversion(SOURCE).convert(LINES, sourceOf(all), () => undefined);
    if (!again) throw new Error('no conversation');
    await writer.step(again);
    await writer.settled(again, again.settle());

    // What `import` of the whole log writes.
    const whole = SqliteStore.open(join(dir, 'whole.sqlite'));
    const [imported] = new SessionConversion(SOURCE).convert(LINES, sourceOf(all), () => undefined);
    if (!imported) throw new Error('no conversation');
    const settled = imported.settle();
    await whole.upsert([{ ...settled.batch(), hash: settled.contentHash } as GraphBatch]);

    const documentOf = async (s: SqliteStore): Promise<unknown> =>
      (await s.subgraph(again.id))?.nodes.find((n) => n.label === 'Document')?.properties.content;
    expect(await documentOf(store)).toEqual(await documentOf(whole));
    expect(await snapshot(store, again.id, WORDS)).toEqual(await snapshot(whole, again.id, WORDS));
    await store.close();
    await whole.close();
  });
});
