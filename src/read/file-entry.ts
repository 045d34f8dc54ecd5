import { createReadStream } from 'node:fs';
import type { Entry } from './entry.js';

/** An entry backed by a plain file on disk. */
export function fileEntry(
  filePath: string,
  path: string,
  displayPath: string,
  size: number,
  modified: Date,
): Entry {
  return {
    path,
    displayPath,
    size,
    modified,
    localFile: filePath,
    open: () => Promise.resolve(createReadStream(filePath, { highWaterMark: 1 << 20 })),
  };
}
