/**
 * `watch --sync DIR`'s timing (docs/sync.md): a sync once the follower's updates have been
 * quiet for `quietMs` (a burst of session lines is one sync, not one per line), and one every
 * `everyMs` whatever happens here, to take in what the other machines wrote. Never two at once:
 * an update during a sync makes one more after it.
 */
export function syncAfterUpdates(
  run: () => Promise<void>,
  timing: { quietMs: number; everyMs: number },
): { nudge: () => void; stop: () => Promise<void> } {
  let quiet: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;
  const start = (): void => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = run()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          start();
        }
      });
  };
  const every = setInterval(start, timing.everyMs);
  return {
    nudge: () => {
      clearTimeout(quiet);
      quiet = setTimeout(start, timing.quietMs);
    },
    stop: async () => {
      stopped = true;
      clearTimeout(quiet);
      clearInterval(every);
      await running;
    },
  };
}
