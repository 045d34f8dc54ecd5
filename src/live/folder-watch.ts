import { watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** How folders are watched: by file-system events, or by a slow poll where there are none. */
export type WatchMode = 'events' | 'poll';

/** A running watch of folders; `close` stops it. */
export interface FolderWatch {
  mode: WatchMode;
  close(): void;
}

/**
 * Calls `onPath` with each path that changed under the folders (recursive file-system events:
 * no CPU while nothing changes), or `onPath(undefined)` when a change could not be named (a
 * re-scan is then due). Where events are not available (some network and container file
 * systems), or `poll` is asked for, `onPath(undefined)` every `pollMilliseconds` instead.
 */
export function watchFolders(
  roots: readonly string[],
  onPath: (path: string | undefined) => void,
  options: { poll?: boolean; pollMilliseconds: number },
): FolderWatch {
  const watchers: FSWatcher[] = [];
  let failed = options.poll === true;
  for (const root of roots) {
    if (failed) break;
    try {
      const watcher = watch(root, { recursive: true, persistent: true }, (_event, name) => {
        onPath(name === null ? undefined : join(root, name));
      });
      // A watched folder removed or unreadable later: fall back to scanning.
      watcher.on('error', () => {
        onPath(undefined);
      });
      watchers.push(watcher);
    } catch {
      failed = true;
    }
  }
  if (!failed)
    return {
      mode: 'events',
      close: () => {
        watchers.forEach((w) => {
          w.close();
        });
      },
    };
  for (const watcher of watchers) watcher.close();
  const timer = setInterval(() => {
    onPath(undefined);
  }, options.pollMilliseconds);
  return {
    mode: 'poll',
    close: () => {
      clearInterval(timer);
    },
  };
}
