import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { bundleDir, storeFile } from '../folder/data-dir.js';
import { WRITE_LOCK_FILE } from '../folder/write-lock.js';

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
 * Removes what an import created before it found its input was not an export: a new store file
 * (and its journal files) and a new bundle. Nothing that was there before is touched. Called
 * under the write lock, with a snapshot taken under it, so what another writer made before this
 * one took the lock counts as "there before".
 */
export async function discardNewData(snapshot: DataDirSnapshot): Promise<void> {
  const { dataDir, existed } = snapshot;
  if (!existed.store) {
    const store = basename(storeFile(dataDir));
    for (const name of await readdir(dataDir).catch(() => [] as string[]))
      if (name === store || name.startsWith(`${store}-`))
        await rm(join(dataDir, name), { force: true });
  }
  if (!existed.bundle) await rm(bundleDir(dataDir), { recursive: true, force: true });
}

/**
 * After the write lock is let go, the lock's own files, when this import made them and the
 * folder holds no data (no store, no bundle: nothing any writer made): a folder this import
 * made is removed whole, and a folder of the user's gets back only what it held. Where there is
 * data, the lock file stays (another writer may be waiting on it).
 */
export async function discardLockFiles(snapshot: DataDirSnapshot): Promise<void> {
  const { dataDir, existed } = snapshot;
  if (existed.lock || existsSync(storeFile(dataDir)) || existsSync(bundleDir(dataDir))) return;
  const lockFiles = [WRITE_LOCK_FILE, `${WRITE_LOCK_FILE}.pid`];
  const names = await readdir(dataDir).catch(() => undefined);
  if (names === undefined) return;
  if (!existed.dataDir && names.every((name) => lockFiles.includes(name)))
    await rm(dataDir, { recursive: true, force: true });
  else for (const name of lockFiles) await rm(join(dataDir, name), { force: true });
}
