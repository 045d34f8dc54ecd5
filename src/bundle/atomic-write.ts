import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

let counter = 0;

/**
 * Writes a file so that readers (and a process killed mid-write) see the old or the new content,
 * never half: a temporary file beside it, then a rename.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { dirExists?: boolean } = {},
): Promise<void> {
  if (!options.dirExists) await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}-${++counter}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** {@link writeFileAtomic} for a folder that exists, without leaving the thread. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const temp = `${path}.${process.pid}-${++counter}.tmp`;
  try {
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
