import type { Follower, FollowOptions } from './follower.js';

/**
 * Follows Claude Code's session folders and watched folders (see `follower.ts`), loaded when
 * first called: following keeps its state in SQLite, and importing `chatgraph` loads no store.
 */
export async function followFolders(options: FollowOptions): Promise<Follower> {
  const { followFolders: follow } = await import('./follower.js');
  return follow(options);
}
