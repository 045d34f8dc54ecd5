import { stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { besidePath } from '../read/entry.js';
import { fileEntry } from '../read/file-entry.js';
import type { SideEntry } from '../read/read-records.js';
import { expandSidePatterns, folderIndex, isSidePattern } from '../read/side-patterns.js';
import type { FileStat } from './scan-folders.js';

/** A file set's side files as found now, and where a change means the set changed. */
export interface FoundSides {
  sides: SideEntry[];
  /** Files whose change (or creation) changes the set: those found and those named but absent. */
  files: string[];
  /** Folders in which a file added or changed may be one of the set's (a pattern's matches). */
  folders: string[];
}

/**
 * The side files of a followed file set (`FileSetFormat.with`), as `import` of the followed
 * folder finds them: a name beside the claimed file, a pattern expanded against the folder's
 * files (`files`, as the follower's scan keeps them). A file followed alone (a log beside a
 * project) finds its side files on disk beside it.
 */
export async function findSides(
  main: string,
  root: string,
  names: readonly string[],
  files: ReadonlyMap<string, FileStat>,
): Promise<FoundSides> {
  const found: FoundSides = { sides: [], files: [], folders: [] };
  if (main === root) {
    for (const name of names.filter((n) => !isSidePattern(n))) {
      const path = join(dirname(main), ...name.split('/'));
      found.files.push(path);
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile() === true)
        found.sides.push({ name, entry: fileEntry(path, name, path, info.size, info.mtime) });
    }
    return found;
  }
  const prefix = root + sep;
  const relative = (path: string): string => path.slice(prefix.length).split(sep).join('/');
  const absolute = (rel: string): string => join(root, ...rel.split('/'));
  const rels: string[] = [];
  for (const path of files.keys()) if (path.startsWith(prefix)) rels.push(relative(path));
  const index = folderIndex(rels);
  const claimed = relative(main);
  const add = (name: string, rel: string): void => {
    const path = absolute(rel);
    const info = files.get(path);
    if (!info) return;
    const entry = fileEntry(path, rel, path, info.size, new Date(info.mtimeMs));
    found.sides.push({ name, entry });
  };
  const patterns = names.filter(isSidePattern);
  for (const matches of expandSidePatterns(claimed, patterns, index))
    for (const { name, path } of matches) {
      add(name, path);
      found.folders.push(dirname(absolute(path)));
    }
  for (const pattern of patterns) {
    // A pattern's own folder, when it names one without the files of another pattern.
    if (/\{stems:\d+\}/.test(pattern)) continue;
    const stem = claimed.slice(claimed.lastIndexOf('/') + 1).replace(/\.[^.]*$/, '');
    const folder = claimed.split('/').slice(0, -1).at(-1) ?? '';
    const named = pattern.replaceAll('{stem}', stem).replaceAll('{dir}', folder);
    const rel = besidePath(claimed, named);
    if (rel !== undefined) found.folders.push(dirname(absolute(rel)));
  }
  for (const name of names.filter((n) => !isSidePattern(n))) {
    const rel = besidePath(claimed, name);
    if (rel === undefined) continue;
    found.files.push(absolute(rel));
    add(name, rel);
  }
  for (const side of found.sides) found.files.push(side.entry.localFile ?? '');
  return found;
}

/** Which followed file sets a changed file belongs to (see {@link findSides}). */
export class SideIndex {
  private readonly byFile = new Map<string, Set<string>>();
  private readonly byFolder = new Map<string, Set<string>>();
  private readonly ofMain = new Map<string, { files: string[]; folders: string[] }>();

  /** Notes a file set's side files and folders (replacing what was noted of it before). */
  set(main: string, found: Pick<FoundSides, 'files' | 'folders'>): void {
    this.delete(main);
    const noted = { files: [...new Set(found.files)], folders: [...new Set(found.folders)] };
    this.ofMain.set(main, noted);
    for (const file of noted.files) addTo(this.byFile, file, main);
    for (const folder of noted.folders) addTo(this.byFolder, folder, main);
  }

  delete(main: string): void {
    const noted = this.ofMain.get(main);
    if (!noted) return;
    this.ofMain.delete(main);
    for (const file of noted.files) this.byFile.get(file)?.delete(main);
    for (const folder of noted.folders) this.byFolder.get(folder)?.delete(main);
  }

  /** The claimed files of the sets a path is (or may be) a side file of. */
  mainsOf(path: string): string[] {
    return [...(this.byFile.get(path) ?? []), ...(this.byFolder.get(dirname(path)) ?? [])];
  }
}

function addTo(map: Map<string, Set<string>>, key: string, value: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(value);
}
