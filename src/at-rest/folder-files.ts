import { openSync, readSync, closeSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ENCRYPTION_FILE, KEY_FILE, STAGING } from '../bundle/encryption-markers.js';

/** Files that are never encrypted: the markers and the staging folders (and `leftOut`). */
const LEFT_AS_THEY_ARE = [ENCRYPTION_FILE, KEY_FILE, ...Object.values(STAGING)];

/** A SQLite file's companions, folded into it by a checkpoint before it is copied. */
export const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/**
 * Every file of the folder that holds data, relative to it (companions and markers left out,
 * and the names in `leftOut`: the write lock's, which the data folder names).
 */
export async function dataFiles(dataDir: string, leftOut: readonly string[]): Promise<string[]> {
  const skipped = new Set([...LEFT_AS_THEY_ARE, ...leftOut]);
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
