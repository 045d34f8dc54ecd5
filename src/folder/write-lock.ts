import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type Database from 'better-sqlite3-multiple-ciphers';
import type { FolderLayout } from './layout.js';

/**
 * The lock's files: the lock (an empty SQLite file: its lock is the writer's), and beside it
 * the holder's pid, for the waiting message only (the lock itself is the truth).
 */
export type LockFiles = Pick<FolderLayout, 'dir' | 'writeLock' | 'lockHolder'>;

/** Who holds the write lock, as far as can be told. */
export interface LockHolder {
  /** The holder's process id (absent when it has not written it yet). */
  pid?: number;
}

/** Options of {@link withWriteLock}. */
export interface WriteLockOptions {
  /** Called once when another writer holds the lock and this one starts waiting. */
  onWait?: (holder: LockHolder) => void;
  /** How often a waiting writer tries again, in milliseconds (default 200). */
  pollMilliseconds?: number;
  /**
   * The longest a writer waits, in milliseconds, before it gives up with a
   * {@link WriteLockBusyError} (a server's request says so rather than hang); no limit unless given.
   */
  maxWaitMilliseconds?: number | undefined;
}

/** Another writer held the data folder for longer than the writer would wait. */
export class WriteLockBusyError extends Error {
  constructor(readonly holder: LockHolder) {
    super(
      `another chatgraph writer${holder.pid !== undefined ? ` (pid ${holder.pid})` : ''} is changing the data folder (an import, say): try again when it is done`,
    );
  }
}

// Data folders whose lock this async context already holds: a nested writer (a reindex inside
// an import) runs without waiting on itself.
const held = new AsyncLocalStorage<ReadonlySet<string>>();

/**
 * Runs `fn` as the data folder's only writer: every writer (import, reindex, push, delete, and
 * whatever else changes the bundle or store) takes this lock, a second one waits until the
 * first is done, and readers never take it. The lock is SQLite's exclusive file lock on
 * the folder's `write.lock`: the kernel releases it when its process ends, even by `kill -9`, so
 * a dead writer never blocks the next one and there is no staleness to guess.
 */
export async function withWriteLock<T>(
  files: LockFiles,
  fn: () => Promise<T>,
  options: WriteLockOptions = {},
): Promise<T> {
  const key = resolve(files.dir);
  const mine = held.getStore();
  if (mine?.has(key)) return fn();
  mkdirSync(key, { recursive: true });
  const db = await acquire(files, options);
  holding.add(db);
  try {
    return await held.run(new Set([...(mine ?? []), key]), fn);
  } finally {
    if (holderPid(files) === process.pid) rmSync(files.lockHolder, { force: true });
    db.exec('ROLLBACK');
    db.close();
    holding.delete(db);
  }
}

// The connections holding a lock, kept reachable: a writer whose work awaits a promise nothing
// else refers to would otherwise let the connection be collected, and its finalizer close it,
// releasing the lock under the writer (seen: a holder that waited on a bare interval lost it
// after about 5 s).
const holding = new Set<Database.Database>();

async function acquire(files: LockFiles, options: WriteLockOptions): Promise<Database.Database> {
  // Loaded when a writer first locks, not when chatgraph is imported (see openStore).
  const { default: Sqlite } = await import('better-sqlite3-multiple-ciphers');
  const db = new Sqlite(files.writeLock);
  // Never block the thread inside SQLite: the wait is a poll, so the event loop goes on.
  db.pragma('busy_timeout = 0');
  let waited = false;
  const started = Date.now();
  for (;;) {
    try {
      db.exec('BEGIN EXCLUSIVE');
      // At once, before anything else runs: a writer waiting from now on can name the holder.
      writeFileSync(files.lockHolder, String(process.pid));
      return db;
    } catch (error) {
      if (!isBusy(error)) {
        db.close();
        throw error;
      }
    }
    if (!waited) {
      waited = true;
      const pid = holderPid(files);
      options.onWait?.(pid !== undefined ? { pid } : {});
    }
    if (
      options.maxWaitMilliseconds !== undefined &&
      Date.now() - started >= options.maxWaitMilliseconds
    ) {
      db.close();
      const pid = holderPid(files);
      throw new WriteLockBusyError(pid !== undefined ? { pid } : {});
    }
    await new Promise((r) => setTimeout(r, options.pollMilliseconds ?? 200));
  }
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}

/** The holder's pid as it wrote it, if it did. */
export function holderPid(files: Pick<LockFiles, 'lockHolder'>): number | undefined {
  try {
    const text = readFileSync(files.lockHolder, 'utf8').trim();
    return /^\d+$/.test(text) ? Number(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The message a CLI prints while it waits for another writer. */
export function waitingMessage(holder: LockHolder): string {
  return `waiting for another chatgraph writer${holder.pid !== undefined ? ` (pid ${holder.pid})` : ''}…`;
}
