import { baseName, besidePath } from './entry.js';

/** The files of an input by folder, to expand side-file patterns against. */
export type FolderIndex = ReadonlyMap<string, readonly string[]>;

/** Indexes an input's file paths by their folder. */
export function folderIndex(paths: Iterable<string>): FolderIndex {
  const index = new Map<string, string[]>();
  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    const folder = slash === -1 ? '' : path.slice(0, slash);
    const list = index.get(folder);
    if (list) list.push(path);
    else index.set(folder, [path]);
  }
  for (const list of index.values()) list.sort();
  return index;
}

/** True when a side name is a pattern (see `expandSidePatterns`), not one file's name. */
export function isSidePattern(name: string): boolean {
  return name.includes('*') || name.includes('{');
}

/**
 * Expands a file set's side-file patterns against the input's files, each into the files it
 * names, by the relative name with the placeholders filled: `{stem}` is the claimed file's name
 * without its extension, `{dir}` its folder's name, `{stems:N}` each stem of the files the N-th
 * pattern found (a second level: an OpenCode message's parts), a last segment with `*` every
 * file of that folder it matches (`../../message/{stem}/*.json`), and a folder segment `*`
 * every folder there that has the rest (a sub-agent's `meta.json` in each folder of a
 * session's `agents/`, as `agents/` `*` `/meta.json`), named by the folder found.
 */
export function expandSidePatterns(
  claimed: string,
  patterns: readonly string[],
  index: FolderIndex,
): { name: string; path: string }[][] {
  const stem = baseName(claimed).replace(/\.[^.]*$/, '');
  const folder = claimed.split('/').slice(0, -1);
  const dir = folder.at(-1) ?? '';
  const found: { name: string; path: string }[][] = [];
  for (const pattern of patterns) {
    const ref = /\{stems:(\d+)\}/.exec(pattern);
    const stems = ref
      ? (found[Number(ref[1])] ?? []).map((f) => baseName(f.path).replace(/\.[^.]*$/, ''))
      : [undefined];
    const matches: { name: string; path: string }[] = [];
    for (const each of stems) {
      let name = pattern.replaceAll('{stem}', stem).replaceAll('{dir}', dir);
      if (ref && each !== undefined) name = name.replace(ref[0], each);
      if (name.includes('/*/')) {
        for (const folderName of subfolders(claimed, name.slice(0, name.indexOf('/*/')), index))
          for (const match of expandSidePatterns(
            claimed,
            [name.replace('/*/', `/${folderName}/`)],
            index,
          )[0] ?? [])
            matches.push(match);
        continue;
      }
      const slash = name.lastIndexOf('/');
      const last = name.slice(slash + 1);
      const head = slash === -1 ? '' : name.slice(0, slash);
      if (!last.includes('*')) {
        const path = besidePath(claimed, name);
        if (
          path !== undefined &&
          (index.get(path.split('/').slice(0, -1).join('/')) ?? []).includes(path)
        )
          matches.push({ name, path });
        continue;
      }
      const inside = besidePath(claimed, `${head}/x`);
      if (inside === undefined) continue;
      const where = inside.split('/').slice(0, -1).join('/');
      const glob = new RegExp(`^${last.split('*').map(escape).join('[^/]*')}$`);
      for (const path of index.get(where) ?? [])
        if (glob.test(baseName(path))) matches.push({ name: `${head}/${baseName(path)}`, path });
    }
    found.push(matches);
  }
  return found;
}

// The names of the folders directly inside `head` (relative to the claimed file's folder) that
// hold files of the input.
function subfolders(claimed: string, head: string, index: FolderIndex): string[] {
  const inside = besidePath(claimed, `${head}/x`);
  if (inside === undefined) return [];
  const where = inside.split('/').slice(0, -1).join('/');
  const names = new Set<string>();
  for (const folder of index.keys()) {
    if (!folder.startsWith(`${where}/`)) continue;
    const name = folder.slice(where.length + 1).split('/')[0];
    if (name !== undefined && name !== '') names.add(name);
  }
  return [...names].sort();
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
