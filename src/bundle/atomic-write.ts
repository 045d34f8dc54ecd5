import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

let counter = 0;

/** How {@link writeFileAtomic} writes. */
export interface AtomicWriteOptions {
  /** The folder exists already (no mkdir). */
  dirExists?: boolean;
  /**
   * Survive a power cut, not only a killed process: the file's bytes are flushed to the disk
   * before the rename and the folder's entry after it (default). `false` for the bundle's bulk
   * files, where an fsync each (4-8 ms on a virtual disk) would make an import many times slower;
   * they can be written again from their export.
   */
  durable?: boolean;
  /** The new file's permission bits (a private key's 0600), set before any byte is in it. */
  mode?: number;
}

/**
 * Writes a file so that readers (and a process killed mid-write, or a power cut when durable)
 * see the old or the new content, never half: a temporary file beside it, flushed, then a
 * rename, then the folder flushed so the rename itself is on disk.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  if (!options.dirExists) await mkdir(dirname(path), { recursive: true });
  const durable = options.durable !== false;
  const temp = `${path}.${process.pid}-${++counter}.tmp`;
  try {
    // Created, never opened through what is there: a link planted at the name is not followed.
    const handle = await open(temp, 'wx', options.mode).catch(async (error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      await rm(temp, { force: true });
      return open(temp, 'wx', options.mode);
    });
    try {
      await handle.writeFile(data);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  if (durable) await syncFolder(dirname(path));
}

/**
 * {@link writeFileAtomic} for a folder that exists, without leaving the thread; `data` may come
 * in parts (written in turn, never joined: a large file is not held twice).
 */
export function writeFileAtomicSync(
  path: string,
  data: string | Uint8Array | readonly Uint8Array[],
  options: Pick<AtomicWriteOptions, 'durable'> = {},
): void {
  const durable = options.durable !== false;
  const temp = `${path}.${process.pid}-${++counter}.tmp`;
  try {
    const fd = createSync(temp);
    try {
      const parts = typeof data === 'string' || data instanceof Uint8Array ? [data] : data;
      for (const part of parts) writeFileSync(fd, part);
      if (durable) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
  if (durable) syncFolderSync(dirname(path));
}

// A new file at `temp`, never opened through a link planted there (one is removed first).
function createSync(temp: string): number {
  try {
    return openSync(temp, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    rmSync(temp, { force: true });
    return openSync(temp, 'wx');
  }
}

/** Flushes a folder's entries (a rename into it) to the disk. */
export async function syncFolder(folder: string): Promise<void> {
  // Windows cannot open a folder for fsync; its renames are journalled by NTFS.
  if (process.platform === 'win32') return;
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function syncFolderSync(folder: string): void {
  if (process.platform === 'win32') return;
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
