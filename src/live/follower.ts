import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import type { Folder } from '../folder/folder.js';
import type { FollowEvent, FollowedStore, UnreadableStore } from './follow-event.js';
import type { FollowOptions } from './follow-options.js';
import { agentTargets, type FollowTarget } from './follow-targets.js';
import { watchFolders } from './folder-watch.js';
import { FollowedTree } from './followed-tree.js';
import { FollowRunner } from './follow-runner.js';
import { LiveWriter } from './live-writer.js';

export type { FollowOptions } from './follow-options.js';

/** A running follower. */
export interface Follower {
  /** The folders (and files) followed. */
  folders: string[];
  /** Stops watching, finishes what it was writing, and closes the store. */
  stop(): Promise<void>;
}

/** No coding agent's store and no folder to follow (`name` tells it across the public API). */
export class NothingToFollowError extends Error {
  override readonly name = 'NothingToFollowError';
}

/**
 * Follows coding agents' sessions (each as its provider declares it is written: JSON Lines
 * appended, documents rewritten, SQLite stores; see `FollowHow`) and folders where exports are
 * dropped, importing what is new now and then each change as it happens (see `followLog`,
 * `followDocument`, `followStore`, `followExport`). Changes are handled one at a time, in a
 * single queue; resolves once the first pass is done.
 */
export async function followFolders(folder: Folder, options: FollowOptions): Promise<Follower> {
  const { targets, unreadable } = await targetsOf(folder, options);
  if (targets.length === 0)
    throw new NothingToFollowError(
      options.folders && options.folders.length > 0
        ? 'no folder to follow'
        : 'no coding agent’s sessions were found in their usual places (chatgraph sources --installed lists what is found): give the folders to watch',
    );
  const fileTargets = new Set<string>();
  for (const target of targets)
    if ((await stat(target.path).catch(() => undefined))?.isFile() === true)
      fileTargets.add(target.path);
  const tree = new FollowedTree(targets, fileTargets);
  const writer = await LiveWriter.open(folder);
  const runner = new FollowRunner(folder, options, tree, writer, await writer.target.deep());
  const poll = options.poll === true;
  const watch = watchFolders(
    targets.map((t) => ({ path: t.path, file: fileTargets.has(t.path) })),
    (path) => {
      runner.changed(path);
    },
    { poll, pollMilliseconds: options.pollMilliseconds ?? 2000 },
  );
  await runner.start(watch);
  const folders = targets.map((t) => t.path);
  options.onEvent?.(readyEvent(tree, folders, watch.mode, unreadable));
  runner.kick();
  return { folders, stop: () => runner.stop() };
}

async function targetsOf(
  folder: Folder,
  options: FollowOptions,
): Promise<{ targets: FollowTarget[]; unreadable: UnreadableStore[] }> {
  const folders = (options.folders ?? []).map((f) => ({ path: resolve(f) }));
  const wanted = options.agents ?? folders.length === 0;
  if (wanted === false) return { targets: folders, unreadable: [] };
  const only = wanted === true ? undefined : wanted;
  const agents = await agentTargets({ only, ...(options.at ? { at: options.at } : {}) });
  const data = resolve(folder.dir);
  // A folder given to `watch` wins over an agent's same folder; nothing inside the data folder.
  const given = new Set(folders.map((f) => f.path));
  const targets = [
    ...folders,
    ...agents.targets.filter((t) => !given.has(t.path) && !isInside(t.path, data)),
  ];
  const unreadable = agents.unreadable.map((s) => ({
    product: s.product,
    path: s.path,
    reason: s.reason ?? 'it cannot be read',
  }));
  return { targets, unreadable };
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder + sep);
}

function readyEvent(
  tree: FollowedTree,
  folders: string[],
  mode: 'events' | 'poll',
  unreadable: UnreadableStore[],
): FollowEvent {
  const agents: FollowedStore[] = [];
  let logs = 0;
  let exports = 0;
  for (const [target, seen] of tree.summary()) {
    exports += seen.exports;
    logs += seen.files;
    const provider = target.provider;
    if (!provider) continue;
    const declared = provider.agent?.writes;
    agents.push({
      source: provider.source,
      product: provider.product,
      path: target.path,
      ...(target.env !== undefined ? { env: target.env } : {}),
      how: seen.how.size > 0 ? [...seen.how].sort() : declared ? [declared] : [],
      files: seen.files,
    });
  }
  return {
    kind: 'ready',
    folders,
    logs,
    exports,
    mode,
    ...(agents.length > 0 ? { agents } : {}),
    ...(unreadable.length > 0 ? { unreadable } : {}),
  };
}
