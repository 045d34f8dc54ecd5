import type { Folder } from '../folder/folder.js';
import type { Follower, FollowOptions } from '../live/follower.js';
import type { ExportImported } from '../live/follow-export.js';
import { importExports } from './import-exports.js';

/**
 * Follows Claude Code's session folders and watched folders (see `live/follower.ts`), loaded
 * when first called: following keeps its state in SQLite, and importing `chatgraph` loads no
 * store. An export dropped into a followed folder is imported as `chatgraph import` would: the
 * data folder composes the import, and hands the follower that import, not its parts.
 */
export async function followFolders(folder: Folder, options: FollowOptions): Promise<Follower> {
  const { followFolders: follow } = await import('../live/follower.js');
  return follow(folder, {
    ...options,
    importExport: options.importExport ?? ((file) => importExport(folder, file, options)),
  });
}

async function importExport(
  folder: Folder,
  file: string,
  options: FollowOptions,
): Promise<ExportImported> {
  const result = await importExports(folder, [file], {
    redact: options.redact === true,
    ...(options.onWait ? { onWait: options.onWait } : {}),
  });
  const skipped = result.problems.some((p) => p.code === 'file-already-imported');
  return {
    conversations: result.totals.conversations,
    written: result.written.created + result.written.updated,
    skipped: skipped && result.totals.conversations === 0,
  };
}
