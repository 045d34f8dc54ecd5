import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { FolderLayout } from '../folder/layout.js';

/** What of a data folder was there before an import, so what it created can be taken back. */
export interface DataDirSnapshot {
  layout: FolderLayout;
  existed: { dataDir: boolean; store: boolean; bundle: boolean; lock: boolean };
}

/** Notes what of the data folder exists now. */
export function snapshotDataDir(layout: FolderLayout): DataDirSnapshot {
  return {
    layout,
    existed: {
      dataDir: existsSync(layout.dir),
      store: existsSync(layout.store),
      bundle: existsSync(layout.bundle.dir),
      lock: existsSync(layout.writeLock),
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
  const { layout, existed } = snapshot;
  if (!existed.store) {
    const store = basename(layout.store);
    for (const name of await readdir(layout.dir).catch(() => [] as string[]))
      if (name === store || name.startsWith(`${store}-`))
        await rm(join(layout.dir, name), { force: true });
  }
  if (!existed.bundle) await rm(layout.bundle.dir, { recursive: true, force: true });
}

/**
 * After the write lock is let go, the lock's own files, when this import made them and the
 * folder holds no data (no store, no bundle: nothing any writer made): a folder this import
 * made is removed whole, and a folder of the user's gets back only what it held. Where there is
 * data, the lock file stays (another writer may be waiting on it).
 */
export async function discardLockFiles(snapshot: DataDirSnapshot): Promise<void> {
  const { layout, existed } = snapshot;
  if (existed.lock || existsSync(layout.store) || existsSync(layout.bundle.dir)) return;
  const lockFiles = [layout.writeLock, layout.lockHolder];
  const names = await readdir(layout.dir).catch(() => undefined);
  if (names === undefined) return;
  if (!existed.dataDir && names.every((name) => lockFiles.some((f) => basename(f) === name)))
    await rm(layout.dir, { recursive: true, force: true });
  else for (const file of lockFiles) await rm(file, { force: true });
}
