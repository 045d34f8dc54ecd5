import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { bundleDir, storeFile } from './data-dir.js';
import { WRITE_LOCK_FILE } from './write-lock.js';

/** What of a data folder was there before an import, so what it created can be taken back. */
export interface DataDirSnapshot {
  dataDir: string;
  existed: { dataDir: boolean; store: boolean; bundle: boolean; lock: boolean };
}

/** Notes what of the data folder exists now. */
export function snapshotDataDir(dataDir: string): DataDirSnapshot {
  return {
    dataDir,
    existed: {
      dataDir: existsSync(dataDir),
      store: existsSync(storeFile(dataDir)),
      bundle: existsSync(bundleDir(dataDir)),
      lock: existsSync(join(dataDir, WRITE_LOCK_FILE)),
    },
  };
}

/**
 * Removes what an import created before it found its input was not an export: the data
 * folder when it is new, else a new store file (and its journal files) and a new bundle.
 * Nothing that was there before is touched.
 */
export async function discardNewData(snapshot: DataDirSnapshot): Promise<void> {
  const { dataDir, existed } = snapshot;
  if (!existed.dataDir) {
    await rm(dataDir, { recursive: true, force: true });
    return;
  }
  if (!existed.store) {
    const store = basename(storeFile(dataDir));
    for (const name of await readdir(dataDir).catch(() => [] as string[]))
      if (name === store || name.startsWith(`${store}-`))
        await rm(join(dataDir, name), { force: true });
  }
  if (!existed.bundle) await rm(bundleDir(dataDir), { recursive: true, force: true });
  // The write lock's file, made by this import (it is let go before this runs).
  if (!existed.lock)
    for (const name of [WRITE_LOCK_FILE, `${WRITE_LOCK_FILE}.pid`])
      await rm(join(dataDir, name), { force: true });
}
