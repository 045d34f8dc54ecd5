import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3-multiple-ciphers';
import { openDatabase } from '../at-rest/open-database.js';
import { z } from 'zod';
import type { TailMark } from './session-tail.js';

/** What `watch` remembers of one followed file. */
export interface FileState {
  /** The file's size and modification time when last handled: equal means unchanged (not read). */
  size: number;
  mtimeMs: number;
  /** For a session log: where reading stopped. Absent for an export file. */
  mark?: TailMark;
}

const Row = z.object({
  path: z.string(),
  size: z.number(),
  mtime_ms: z.number(),
  mark: z.string().nullable(),
});

const Mark = z.object({
  offset: z.number().int().nonnegative(),
  lines: z.number().int().nonnegative(),
  ino: z.number(),
  fingerprint: z.string(),
});

/**
 * The followed files' state, one row each, in its own SQLite file: a row is written after the
 * file's conversations are in the bundle and the store, so a `watch`
 * killed at any point reads again at most what it had not finished (and the store, keyed by
 * id, takes it once). Only the watcher, holding the write lock, writes it.
 */
export class LiveState {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement;
  private readonly remove: Database.Statement;
  /** Rows waiting for the bundle files they depend on (see {@link later}). */
  private readonly waiting = new Map<string, FileState>();

  /**
   * Opens (or makes) the state at `file` (the data folder's `layout.liveState`), with the
   * folder's SQLCipher key when it is encrypted.
   */
  constructor(file: string, key: string | undefined) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = openDatabase(file, key);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS followed_file (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, mark TEXT)`,
    );
    this.upsert = this.db.prepare(
      `INSERT INTO followed_file (path, size, mtime_ms, mark) VALUES (?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, mark = excluded.mark`,
    );
    this.remove = this.db.prepare(`DELETE FROM followed_file WHERE path = ?`);
  }

  /**
   * Remembers the mode files are read in (`--redact` or not); in another mode than last time
   * every file is forgotten, so each is read again whole and what was written in the other
   * mode is written again (a watch without state read files plainly).
   */
  useMode(mode: 'plain' | 'redacted'): void {
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS live_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`,
    );
    const row = z
      .object({ value: z.string() })
      .optional()
      .parse(this.db.prepare(`SELECT value FROM live_meta WHERE key = 'mode'`).get());
    if ((row?.value ?? 'plain') === mode && row !== undefined) return;
    this.db.transaction(() => {
      if ((row?.value ?? 'plain') !== mode) this.db.exec(`DELETE FROM followed_file`);
      this.db.prepare(`INSERT OR REPLACE INTO live_meta (key, value) VALUES ('mode', ?)`).run(mode);
    })();
  }

  /** Every remembered file (read once at start: a re-scan compares stats in memory). */
  all(): Map<string, FileState> {
    const states = new Map<string, FileState>();
    for (const raw of this.db
      .prepare(`SELECT path, size, mtime_ms, mark FROM followed_file`)
      .all()) {
      const row = Row.safeParse(raw);
      if (!row.success) continue;
      const mark = row.data.mark === null ? undefined : parseMark(row.data.mark);
      states.set(row.data.path, {
        size: row.data.size,
        mtimeMs: row.data.mtime_ms,
        ...(mark ? { mark } : {}),
      });
    }
    return states;
  }

  set(path: string, state: FileState): void {
    this.upsert.run(
      path,
      state.size,
      state.mtimeMs,
      state.mark ? JSON.stringify(state.mark) : null,
    );
  }

  /**
   * Remembers a session log's state once what was read from it is in the bundle too, which
   * waits for a quiet moment (see `LiveWriter.settle`): {@link commit} writes it then. Until
   * then a restarted watch reads the log again whole.
   */
  later(path: string, state: FileState): void {
    this.waiting.set(path, state);
  }

  /** Whether rows wait for {@link commit}. */
  get uncommitted(): boolean {
    return this.waiting.size > 0;
  }

  /** Writes the rows that waited for the bundle, in one transaction. */
  commit(): void {
    if (this.waiting.size === 0) return;
    this.db.transaction(() => {
      for (const [path, state] of this.waiting) this.set(path, state);
    })();
    this.waiting.clear();
  }

  delete(path: string): void {
    this.waiting.delete(path);
    this.remove.run(path);
  }

  close(): void {
    this.db.close();
  }
}

// A damaged mark only costs a whole read of its file.
function parseMark(text: string): TailMark | undefined {
  try {
    const mark = Mark.safeParse(JSON.parse(text));
    return mark.success ? mark.data : undefined;
  } catch {
    return undefined;
  }
}
