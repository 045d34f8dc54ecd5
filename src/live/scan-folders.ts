import { opendir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';

/** What a followed file is: a session log (JSON Lines) or an export dropped in (zip, JSON). */
export type FollowedKind = 'log' | 'export';

/** A followed file as a scan found it. */
export interface FollowedFile {
  path: string;
  /** The followed folder it is in. */
  root: string;
  kind: FollowedKind;
  size: number;
  mtimeMs: number;
}

// Beside subagent logs: `agent-<id>.meta.json` describes the agent; it is not an export.
const NOT_EXPORTS = /\.meta\.json$|(^|[\\/])(sessions-index|memory-store)\.json$/i;

/** The kind of a file by its name, or undefined when it is not followed. */
export function followedKind(path: string): FollowedKind | undefined {
  const name = basename(path).toLowerCase();
  if (name.startsWith('.')) return undefined;
  if (name.endsWith('.jsonl')) return name === 'history.jsonl' ? undefined : 'log';
  if (name.endsWith('.zip')) return 'export';
  if (name.endsWith('.json') && !NOT_EXPORTS.test(path)) return 'export';
  return undefined;
}

/** The path the provider sees (relative to the folder) and the one shown and recorded. */
export function pathsOf(file: { path: string; root: string }): {
  entryPath: string;
  displayPath: string;
} {
  const entryPath = relative(file.root, file.path).split(sep).join('/');
  return { entryPath, displayPath: `${basename(file.root) || file.root}/${entryPath}` };
}

/**
 * Every followed file under the folders, with its size and modification time: one `stat`
 * each and nothing read, so a re-scan of thousands of unchanged logs takes a fraction of a
 * second. A folder that cannot be read is skipped (and reported by `onProblem`).
 */
export async function scanFolders(
  roots: readonly string[],
  onProblem: (path: string, error: unknown) => void,
): Promise<FollowedFile[]> {
  const found: FollowedFile[] = [];
  for (const root of roots) await scanInto(root, root, found, onProblem);
  return found;
}

/** Scans one folder (a root, or a folder that appeared under one) into `found`. */
export async function scanInto(
  root: string,
  dir: string,
  found: FollowedFile[],
  onProblem: (path: string, error: unknown) => void,
): Promise<void> {
  let entries;
  try {
    entries = await opendir(dir);
  } catch (error) {
    onProblem(dir, error);
    return;
  }
  const subfolders: string[] = [];
  const files: string[] = [];
  for await (const dirent of entries) {
    const full = join(dir, dirent.name);
    if (dirent.isDirectory()) subfolders.push(full);
    else if (dirent.isFile() && followedKind(full) !== undefined) files.push(full);
  }
  const infos = await Promise.all(files.map((file) => stat(file).catch(() => undefined)));
  files.forEach((file, i) => {
    const info = infos[i];
    const kind = followedKind(file);
    if (info && kind)
      found.push({ path: file, root, kind, size: info.size, mtimeMs: info.mtimeMs });
  });
  for (const sub of subfolders.sort()) await scanInto(root, sub, found, onProblem);
}
