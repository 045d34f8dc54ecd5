import { statSync, type Stats } from 'node:fs';

/**
 * What kind of thing a path names when it is not a regular file (`a FIFO`, `a character
 * device`), or undefined for a regular file or a path that does not exist. Reading a FIFO or a
 * device never ends (or never starts), so a user-named path is checked before it is opened.
 */
export function notRegularKind(path: string): string | undefined {
  let info: Stats;
  try {
    info = statSync(path);
  } catch {
    return undefined;
  }
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}
