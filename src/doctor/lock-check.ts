import { existsSync } from 'node:fs';
import { holderPid, type LockFiles } from '../folder/write-lock.js';
import { note, ok, type DoctorCheck } from './check.js';

/** Whether a process of this id is running (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Who holds the data folder's write lock. The lock is SQLite's on `write.lock`, released by the
 * kernel when its holder dies, so it is never stale itself; `write.lock.pid` names the last
 * holder and may outlive one killed with -9 (harmless: the next writer rewrites it).
 */
export async function lockCheck(files: LockFiles): Promise<DoctorCheck> {
  const lockFile = files.writeLock;
  if (!existsSync(lockFile)) return ok('write lock', 'free (no writer has run yet)');
  const { default: Sqlite } = await import('better-sqlite3-multiple-ciphers');
  const db = new Sqlite(lockFile, { fileMustExist: true });
  let held = false;
  try {
    db.pragma('busy_timeout = 0');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('ROLLBACK');
  } catch {
    held = true;
  } finally {
    db.close();
  }
  const pid = holderPid(files);
  const who = pid !== undefined ? `pid ${pid}` : 'a process that has not written its pid yet';
  if (held)
    return note(
      'write lock',
      `held by ${who}, ${pid !== undefined && alive(pid) ? 'running' : 'ending'} (an import, say): writers wait for it`,
    );
  if (pid !== undefined && !alive(pid))
    return ok(
      'write lock',
      `free (write.lock.pid names pid ${pid}, which is gone: stale, harmless)`,
    );
  return ok('write lock', 'free');
}
