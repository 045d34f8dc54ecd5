import { opendir, stat } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import type { FileClaim, FollowHow } from './file-claims.js';
import type { FollowTarget } from './follow-targets.js';

/** What a followed file is: an agent's session file (as its claim says), or an export dropped in. */
export type FollowedKind = FollowHow | 'export';

/** A followed file as a scan found it. */
export interface FollowedFile {
  path: string;
  /** The followed folder (or file) it is in. */
  root: string;
  kind: FollowedKind;
  /** The provider's claim on it (an agent's session file). */
  claim?: FileClaim | undefined;
  size: number;
  mtimeMs: number;
  ino?: number;
}

/** A file's size, modification time and inode, as a scan saw them. */
export interface FileStat {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** Whether a file is as last handled (its size and time): a watch before this one need not read it. */
export function unchangedSince(known: { size: number; mtimeMs: number }, info: FileStat): boolean {
  return known.size === info.size && known.mtimeMs === info.mtimeMs;
}

/** Whether two looks at a path saw the same file, unchanged. */
export function sameStat(a: FileStat, b: FileStat): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

// Beside subagent logs: `agent-<id>.meta.json` describes the agent; it is not an export.
const NOT_EXPORTS = /\.meta\.json$|(^|[\\/])(sessions-index|memory-store)\.json$/i;

/** Whether a file dropped into a folder given to `watch` is imported as an export (by its name). */
export function isExportName(path: string): boolean {
  const name = basename(path).toLowerCase();
  if (name.startsWith('.')) return false;
  if (name.endsWith('.zip')) return true;
  return name.endsWith('.json') && !NOT_EXPORTS.test(path);
}

/** The path the provider sees (relative to the followed folder) and the one shown and recorded. */
export function pathsOf(file: { path: string; root: string }): {
  entryPath: string;
  displayPath: string;
} {
  // A followed file alone (a SQLite store, a log beside a project) is named as `import` of it names it.
  if (file.path === file.root) {
    const name = basename(file.path);
    return { entryPath: name, displayPath: name };
  }
  const entryPath = relative(file.root, file.path).split(sep).join('/');
  return { entryPath, displayPath: `${basename(file.root) || file.root}/${entryPath}` };
}

/**
 * Every file under the targets (a target that is a file: that file), with its size,
 * modification time and inode: one `stat` each and nothing read, so a re-scan of thousands of
 * unchanged logs takes a fraction of a second. A folder that cannot be read is skipped (and
 * reported by `onProblem`).
 */
export async function scanTargets(
  targets: readonly FollowTarget[],
  onProblem: (path: string, error: unknown) => void,
  skip: (path: string) => boolean,
): Promise<Map<string, FileStat>> {
  const found = new Map<string, FileStat>();
  for (const target of targets) {
    const info = await stat(target.path).catch((error: unknown) => {
      onProblem(target.path, error);
      return undefined;
    });
    if (info?.isFile() === true)
      found.set(target.path, { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino });
    else if (info?.isDirectory() === true) await scanInto(target.path, found, onProblem, skip);
  }
  return found;
}

/** Scans one folder (a target, or a folder that appeared under one) into `found`. */
export async function scanInto(
  dir: string,
  found: Map<string, FileStat>,
  onProblem: (path: string, error: unknown) => void,
  skip: (path: string) => boolean,
): Promise<void> {
  if (skip(dir)) return;
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
    else if (dirent.isFile()) files.push(full);
  }
  files.sort();
  const infos = await Promise.all(files.map((file) => stat(file).catch(() => undefined)));
  files.forEach((file, i) => {
    const info = infos[i];
    if (info) found.set(file, { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino });
  });
  for (const sub of subfolders.sort()) await scanInto(sub, found, onProblem, skip);
}
