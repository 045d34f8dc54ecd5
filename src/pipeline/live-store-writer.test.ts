import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphBatch } from '../graph/graph-batch.js';
import { SqliteStore } from '../stores/sqlite/sqlite-store.js';
import { cuts, linearEntries, linearLog, log } from '../../test/support/claude-code-lines.js';
import { snapshot, SESSION_SOURCE } from '../../test/support/patch-fixtures.js';
import { SessionConversion, type SessionSource } from '../live/convert-session.js';
import { LiveStoreWriter } from './live-store-writer.js';

const SOURCE: SessionSource = { ...SESSION_SOURCE, importId: 'import:sha256:0' };
const WORDS = ['hi', 'fix', 'done', 'café', 'hello', 'ok', 'failed', 'plan', 'hmm'];

describe('LiveStoreWriter', () => {
  it('leaves the SQLite store as writing each step whole would, writing most steps as deltas', async () => {
    let deltas = 0;
    let steps = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(log, linearLog.map(linearEntries)),
        cuts,
        fc.array(fc.boolean(), { minLength: 1 }),
        async (entries, sizes, settles) => {
          const dir = mkdtempSync(join(tmpdir(), 'chatgraph-live-store-'));
          const live = SqliteStore.open(join(dir, 'live.sqlite'));
          const whole = SqliteStore.open(join(dir, 'whole.sqlite'));
          const applyDelta = live.applyDelta.bind(live);
          live.applyDelta = async (...args) => {
            const outcome = await applyDelta(...args);
            if (outcome === 'written') deltas++;
            return outcome;
          };
          const writer = new LiveStoreWriter(live, false);
          // The same lines converted twice: one conversion written step by step, the other
          // (its graph whole at each step) written whole.
          const conversion = new SessionConversion(SOURCE);
          const reference = new SessionConversion(SOURCE);
          let at = 0;
          for (let i = 0; at < entries.length; i++) {
            const next = Math.min(entries.length, at + (sizes[i % sizes.length] ?? 1));
            const source = {
              ...SOURCE,
              checksum: `sha256:${next}`,
              importId: `import:sha256:${next}`,
            };
            const lines = entries.slice(at, next);
            at = next;
            const stepped = conversion.convert(lines, source, () => undefined);
            const made = reference.convert(lines, source, () => undefined);
            const settle = settles[i % settles.length] === true;
            for (const [k, conversation] of stepped.entries()) {
              steps++;
              await writer.step(conversation);
              if (settle) await writer.settled(conversation, conversation.settle());
              const other = made[k];
              if (!other) throw new Error('the two conversions differ');
              const settled = settle ? other.settle() : undefined;
              // Written whole at every step (a hash of its own: never passed over as unchanged).
              const batch = settled ? settled.batch() : other.batch();
              await whole.upsert([{ ...batch, hash: `step-${steps}` } as GraphBatch]);
              expect(await snapshot(live, conversation.id, WORDS)).toEqual(
                await snapshot(whole, conversation.id, WORDS),
              );
            }
          }
          await live.close();
          await whole.close();
        },
      ),
      { numRuns: 60 },
    );
    // The deltas were written, not passed over for whole writes.
    expect(deltas / steps).toBeGreaterThan(0.3);
  }, 300_000);
});
