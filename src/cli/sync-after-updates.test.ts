import { afterEach, describe, expect, it, vi } from 'vitest';
import { syncAfterUpdates } from './sync-after-updates.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('watch --sync: when it syncs', () => {
  it('syncs once after a burst of updates is quiet, never two at once, and at least every so often', async () => {
    vi.useFakeTimers();
    let runs = 0;
    let open = 0;
    let most = 0;
    let finish: () => void = () => undefined;
    const syncs = syncAfterUpdates(
      () => {
        runs++;
        most = Math.max(most, ++open);
        return new Promise<void>((resolve) => {
          finish = () => {
            open--;
            resolve();
          };
        });
      },
      { quietMs: 100, everyMs: 10_000 },
    );
    for (let i = 0; i < 5; i++) {
      syncs.nudge();
      await vi.advanceTimersByTimeAsync(50);
    }
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(100);
    expect(runs).toBe(1);
    // An update while the sync runs: one more once it ends, not one beside it.
    syncs.nudge();
    await vi.advanceTimersByTimeAsync(200);
    expect(runs).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(runs).toBe(2);
    finish();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toBe(3);
    expect(most).toBe(1);
    finish();
    await syncs.stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(runs).toBe(3);
  });
});
