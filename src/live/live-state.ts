import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { existsSync } from 'node:fs';
import type Database from 'better-sqlite3-multiple-ciphers';
import { openDatabase } from '../at-rest/open-database.js';
import { z } from 'zod';
import { timestampOf } from '../model/time.js';
import type { TailMark } from './session-tail.js';

/** What `watch` remembers of one followed file. */
export interface FileState {
  /** The file's size and modification time when last handled: equal means unchanged (not read). */
  size: number;
  mtimeMs: number;
  /** For a session log: where reading stopped. Absent for an export file. */
  mark?: TailMark;
  /**
   * For a document read whole: its files' sizes and times (a file set's side files too), and
   * its content's hash; for a SQLite store: its files' and headers' stamp (see `storeStamp`).
   */
  stamp?: string;
  /** The conversations last written from it (told as kept only here once it is gone). */
  conversations?: readonly string[];
  /** How it is followed (`FollowedKind`): a restarted watch need not read it to know. */
  kind?: string;
}

/** A conversation whose source its agent removed while `watch` followed it: kept only here. */
export interface GoneConversation {
  id: string;
  /** The file (or store) it was read from. */
  file: string;
  /** When `watch` saw it gone. */
  goneAt: string;
}

const GoneRow = z.object({ id: z.string(), file: z.string(), gone_at: z.string() });

/**
 * The conversations kept only in the data folder (see `LiveState.markGone`), the most recently
 * gone first; none when no `watch` ever ran there. Reads the state without changing it.
 */
export function readGone(file: string, key: string | undefined): GoneConversation[] {
  if (!existsSync(file)) return [];
  const db = openDatabase(file, key, { readonly: true, fileMustExist: true });
  try {
    const table = db
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'gone_conversation'`)
      .get();
    if (table === undefined) return [];
    return z
      .array(GoneRow)
      .parse(
        db
          .prepare(`SELECT id, file, gone_at FROM gone_conversation ORDER BY gone_at DESC, id`)
          .all(),
      )
      .map((row) => ({ id: row.id, file: row.file, goneAt: row.gone_at }));
  } finally {
    db.close();
  }
}

/** What `watch` remembers of one session of a SQLite store. */
export interface SessionState {
  /** Its rows' signature when last read (see `SqliteSessionSource.changes`). */
  signature: string;
  conversations: readonly string[];
}

const Row = z.object({
  path: z.string(),
  size: z.number(),
  mtime_ms: z.number(),
  mark: z.string().nullable(),
  stamp: z.string().nullable(),
  conversations: z.string().nullable(),
  kind: z.string().nullable(),
});

const SessionRow = z.object({
  session: z.string(),
  signature: z.string(),
  conversations: z.string(),
});

const Ids = z.array(z.string());

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
  private readonly waitingSessions = new Map<string, Map<string, SessionState>>();
  /** The conversations noted as kept only here (see {@link markGone}). */
  private readonly gone: Set<string>;

  /**
   * Opens (or makes) the state at `file` (the data folder's `layout.liveState`), with the
   * folder's SQLCipher key when it is encrypted.
   */
  constructor(file: string, key: string | undefined) {
    mkdirSync(dirname(file), { recursive: true });
    this.db = openDatabase(file, key);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS followed_file (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, mark TEXT, stamp TEXT, conversations TEXT, kind TEXT)`,
    );
    // A state an earlier version wrote: the columns added since, empty.
    const columns = new Set(
      z
        .array(z.object({ name: z.string() }))
        .parse(this.db.pragma('table_info(followed_file)'))
        .map((c) => c.name),
    );
    for (const column of ['stamp', 'conversations', 'kind'])
      if (!columns.has(column)) this.db.exec(`ALTER TABLE followed_file ADD COLUMN ${column} TEXT`);
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS followed_session (store TEXT NOT NULL, session TEXT NOT NULL, signature TEXT NOT NULL, conversations TEXT NOT NULL, PRIMARY KEY (store, session))`,
    );
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS gone_conversation (id TEXT PRIMARY KEY, file TEXT NOT NULL, gone_at TEXT NOT NULL)`,
    );
    this.upsert = this.db.prepare(
      `INSERT INTO followed_file (path, size, mtime_ms, mark, stamp, conversations, kind) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms, mark = excluded.mark, stamp = excluded.stamp, conversations = excluded.conversations, kind = excluded.kind`,
    );
    this.remove = this.db.prepare(`DELETE FROM followed_file WHERE path = ?`);
    this.gone = new Set(
      z.array(z.string()).parse(this.db.prepare(`SELECT id FROM gone_conversation`).pluck().all()),
    );
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
      if ((row?.value ?? 'plain') !== mode)
        this.db.exec(`DELETE FROM followed_file; DELETE FROM followed_session`);
      this.db.prepare(`INSERT OR REPLACE INTO live_meta (key, value) VALUES ('mode', ?)`).run(mode);
    })();
  }

  /** Every remembered file (read once at start: a re-scan compares stats in memory). */
  all(): Map<string, FileState> {
    const states = new Map<string, FileState>();
    for (const raw of this.db
      .prepare(`SELECT path, size, mtime_ms, mark, stamp, conversations, kind FROM followed_file`)
      .all()) {
      const row = Row.safeParse(raw);
      if (!row.success) continue;
      const mark = row.data.mark === null ? undefined : parseMark(row.data.mark);
      const { stamp, kind } = row.data;
      const conversations = parseIds(row.data.conversations);
      states.set(row.data.path, {
        size: row.data.size,
        mtimeMs: row.data.mtime_ms,
        ...(mark ? { mark } : {}),
        ...(stamp !== null ? { stamp } : {}),
        ...(conversations ? { conversations } : {}),
        ...(kind !== null ? { kind } : {}),
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
      state.stamp ?? null,
      state.conversations ? JSON.stringify(state.conversations) : null,
      state.kind ?? null,
    );
  }

  /** The sessions of a SQLite store as last read, by their key. */
  sessionsOf(store: string): Map<string, SessionState> {
    const sessions = new Map<string, SessionState>();
    for (const raw of this.db
      .prepare(`SELECT session, signature, conversations FROM followed_session WHERE store = ?`)
      .all(store)) {
      const row = SessionRow.safeParse(raw);
      if (!row.success) continue;
      const { session, signature } = row.data;
      sessions.set(session, { signature, conversations: parseIds(row.data.conversations) ?? [] });
    }
    return sessions;
  }

  /** Remembers a session of a store once its conversations are in the bundle (see {@link later}). */
  laterSession(store: string, session: string, state: SessionState): void {
    let waiting = this.waitingSessions.get(store);
    if (!waiting) this.waitingSessions.set(store, (waiting = new Map<string, SessionState>()));
    waiting.set(session, state);
  }

  /** Forgets sessions of a store its agent no longer holds (at once: nothing depends on it). */
  deleteSessions(store: string, sessions: readonly string[]): void {
    const remove = this.db.prepare(`DELETE FROM followed_session WHERE store = ? AND session = ?`);
    this.db.transaction(() => {
      for (const session of sessions) {
        this.waitingSessions.get(store)?.delete(session);
        remove.run(store, session);
      }
    })();
  }

  /**
   * Notes conversations whose source (a file, a store's session) their agent removed: they are
   * kept only here now (`chatgraph list --gone`). Written at once.
   */
  markGone(ids: readonly string[], file: string, at: string): void {
    const insert = this.db.prepare(
      `INSERT INTO gone_conversation (id, file, gone_at) VALUES (?, ?, ?) ON CONFLICT(id) DO NOTHING`,
    );
    this.db.transaction(() => {
      for (const id of ids) insert.run(id, file, at);
    })();
    for (const id of ids) this.gone.add(id);
  }

  /**
   * A followed file (or store) deleted: forgotten, its store's sessions too, and the conversations
   * read from it that no other followed file holds (`others`) noted as kept only here.
   */
  forgetGone(
    path: string,
    known: FileState | undefined,
    others: ReadonlyMap<string, FileState>,
    sessions: ReadonlyMap<string, SessionState> = this.sessionsOf(path),
  ): void {
    this.delete(path);
    const held = new Set([...others.values()].flatMap((s) => s.conversations ?? []));
    const ids = [
      ...(known?.conversations ?? []),
      ...[...sessions.values()].flatMap((s) => s.conversations),
    ].filter((id) => !held.has(id));
    if (sessions.size > 0) this.deleteSessions(path, [...sessions.keys()]);
    if (ids.length > 0) this.markGone(ids, path, timestampOf(new Date()));
  }

  /** Conversations whose source holds them again (a file put back, a session restored). */
  markBack(ids: readonly string[]): void {
    const back = ids.filter((id) => this.gone.has(id));
    if (back.length === 0) return;
    for (const id of back) this.gone.delete(id);
    const remove = this.db.prepare(`DELETE FROM gone_conversation WHERE id = ?`);
    this.db.transaction(() => {
      for (const id of back) remove.run(id);
    })();
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
    return this.waiting.size > 0 || this.waitingSessions.size > 0;
  }

  /** Writes the rows that waited for the bundle, in one transaction. */
  commit(): void {
    if (!this.uncommitted) return;
    const session = this.db.prepare(
      `INSERT INTO followed_session (store, session, signature, conversations) VALUES (?, ?, ?, ?) ON CONFLICT(store, session) DO UPDATE SET signature = excluded.signature, conversations = excluded.conversations`,
    );
    this.db.transaction(() => {
      for (const [path, state] of this.waiting) this.set(path, state);
      for (const [store, sessions] of this.waitingSessions)
        for (const [key, state] of sessions)
          session.run(store, key, state.signature, JSON.stringify(state.conversations));
    })();
    this.waiting.clear();
    this.waitingSessions.clear();
  }

  delete(path: string): void {
    this.waiting.delete(path);
    this.remove.run(path);
  }

  close(): void {
    this.db.close();
  }
}

function parseIds(text: string | null): string[] | undefined {
  if (text === null) return undefined;
  try {
    const ids = Ids.safeParse(JSON.parse(text));
    return ids.success ? ids.data : undefined;
  } catch {
    return undefined;
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
