import { watch, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';

/** How folders are watched: by file-system events, or by a slow poll where there are none. */
export type WatchMode = 'events' | 'poll';

/** A running watch of folders; `close` stops it. */
export interface FolderWatch {
  mode: WatchMode;
  /**
   * Watches one folder more, without what is below it (once; nothing in poll mode): a file an
   * agent rewrites through a temporary file and a rename. Node 20's recursive watch on Linux
   * loses a file replaced by a rename after the first time; a folder's own watch does not.
   */
  add(folder: string): void;
  close(): void;
}

/** A path to watch: a folder, with everything below it, or a file (the files beside it too). */
export interface WatchedPath {
  path: string;
  file: boolean;
}

/**
 * Calls `onPath` with each path that changed under the folders (recursive file-system events:
 * no CPU while nothing changes), or `onPath(undefined)` when a change could not be named (a
 * re-scan is then due). A file is watched by its folder, not below it: its changes, and those of
 * the files beside it (a SQLite store's WAL, a log's side files) are told. Where events are not
 * available (some network and container file systems), or `poll` is asked for,
 * `onPath(undefined)` every `pollMilliseconds` instead.
 */
export function watchFolders(
  roots: readonly (string | WatchedPath)[],
  onPath: (path: string | undefined) => void,
  options: { poll?: boolean; pollMilliseconds: number },
): FolderWatch {
  const watchers: FSWatcher[] = [];
  let failed = options.poll === true;
  const watched = new Map<string, boolean>();
  for (const root of roots) {
    const { path, file } = typeof root === 'string' ? { path: root, file: false } : root;
    const folder = file ? dirname(path) : path;
    // A folder watched with what is below it covers the same folder watched alone.
    watched.set(folder, (watched.get(folder) ?? false) || !file);
  }
  for (const [root, recursive] of watched) {
    if (failed) break;
    try {
      const watcher = watch(root, { recursive, persistent: true }, (_event, name) => {
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
  const flat = new Map<string, FSWatcher>();
  if (!failed)
    return {
      mode: 'events',
      add: (folder) => {
        if (flat.has(folder)) return;
        try {
          const watcher = watch(folder, { persistent: true }, (_event, name) => {
            onPath(name === null ? undefined : join(folder, name));
          });
          // The folder removed: its watch ends (a new one is made if it comes back).
          watcher.on('error', () => {
            watcher.close();
            flat.delete(folder);
          });
          flat.set(folder, watcher);
        } catch {
          // Gone already: the recursive watch and the re-scan still see it.
        }
      },
      close: () => {
        watchers.forEach((w) => {
          w.close();
        });
        flat.forEach((w) => {
          w.close();
        });
        flat.clear();
      },
    };
  for (const watcher of watchers) watcher.close();
  const timer = setInterval(() => {
    onPath(undefined);
  }, options.pollMilliseconds);
  return {
    mode: 'poll',
    add: () => undefined,
    close: () => {
      clearInterval(timer);
    },
  };
}
