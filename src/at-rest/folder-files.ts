import { openSync, readSync, closeSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** A SQLite file's companions, folded into it by a checkpoint before it is copied. */
export const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/**
 * Every file of the folder that holds data, relative to it: SQLite's companions left out, and
 * the names at its top in `leftOut` (the markers, the staging folders and the write lock's
 * files, which the folder's layout names).
 */
export async function dataFiles(dataDir: string, leftOut: readonly string[]): Promise<string[]> {
  const skipped = new Set(leftOut);
  const entries = await readdir(dataDir, { recursive: true, withFileTypes: true });
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const path = relative(dataDir, join(entry.parentPath, entry.name));
    const top = path.split(/[\\/]/)[0] ?? path;
    if (skipped.has(top)) continue;
    if (SQLITE_COMPANIONS.some((suffix) => path.endsWith(suffix))) continue;
    files.push(path);
  }
  return files.sort();
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0');

/** Whether a file is a plain SQLite database (its first 16 bytes say so). */
export function isPlainSqlite(file: string): boolean {
  const head = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } finally {
    closeSync(fd);
  }
}
