import { existsSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import type Database from 'better-sqlite3-multiple-ciphers';
import { openDatabase } from '../../at-rest/open-database.js';
import { isEmptyFile, isStoreDamage } from './store-damage.js';

/**
 * Checks a store file and, when it is damaged, moves it (with its `-wal` and `-shm` files)
 * aside as `<file>.damaged-<time>`, so a rebuild starts from an empty store; the damaged copy
 * is kept, never deleted. Returns where it went, or undefined when it was sound or absent.
 */
export async function setAsideIfDamaged(
  file: string,
  key: string | undefined,
  now = new Date(),
): Promise<string | undefined> {
  if (!existsSync(file) || !damaged(file, key)) return undefined;
  const aside = `${file}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  await rename(file, aside);
  for (const suffix of ['-wal', '-shm'])
    if (existsSync(file + suffix)) await rename(file + suffix, aside + suffix);
  return aside;
}

// SQLite's own check of every page (quick_check: the b-trees, not index contents).
function damaged(file: string, key: string | undefined): boolean {
  if (isEmptyFile(file)) return true;
  let db: Database.Database | undefined;
  try {
    db = openDatabase(file, key, { fileMustExist: true });
    const result: unknown = db.pragma('quick_check(1)', { simple: true });
    return result !== 'ok';
  } catch (error) {
    if (isStoreDamage(error)) return true;
    throw error;
  } finally {
    db?.close();
  }
}
