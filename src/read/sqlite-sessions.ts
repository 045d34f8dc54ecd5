import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3-multiple-ciphers';
import type { SplitProblem } from './record.js';
import { decodeRow, keyOf, loadDecompressor, paramsFor, problem } from './sqlite-records.js';
import type { SqliteSessionRecord, SqliteSessionSource, SqliteStoreQuery } from './sqlite-query.js';
import type { LiveSnapshot } from './sqlite-snapshot.js';

type Row = Record<string, unknown>;

/** One session of a store as listed: its key, the row that lists it, and its rows' signature. */
export interface ListedSession {
  key: string;
  source: SqliteSessionSource;
  /** The session's row, decoded (its JSON columns parsed). */
  row: Row;
  /** Changes whenever the session's rows do (see `SqliteSessionSource.changes`). */
  signature: string;
}

/**
 * A followed store's sessions, read from its live snapshot (see `LiveSnapshot`): listed with a
 * signature each, so only the sessions whose rows changed are read again (`read`), by the same
 * queries `import` runs (see `readSqliteRecords`).
 */
export class SqliteSessions {
  private constructor(
    private readonly db: Database.Database,
    private readonly query: SqliteStoreQuery,
    private readonly tables: ReadonlySet<string>,
  ) {}

  /** Opens the snapshot once refreshed; throws what `LiveSnapshot.refresh` or the open throws. */
  static async open(
    snapshot: LiveSnapshot,
    source: string,
    query: SqliteStoreQuery,
  ): Promise<SqliteSessions> {
    const { hotJournal } = await snapshot.refresh(source);
    const { default: Sqlite } = await import('better-sqlite3-multiple-ciphers');
    await loadDecompressor();
    const db = new Sqlite(snapshot.file, { readonly: !hotJournal, fileMustExist: true });
    try {
      db.pragma('query_only = 1');
      const tables = new Set(
        db
          .prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view')`)
          .pluck()
          .all()
          .filter((name): name is string => typeof name === 'string'),
      );
      return new SqliteSessions(db, query, tables);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** The generations of sessions the store has the tables of (none: it is not this agent's). */
  get sources(): SqliteSessionSource[] {
    return this.query.sources.filter((s) => s.tables.every((t) => this.tables.has(t)));
  }

  /** Every session, with its signature; problems name the row. */
  list(problems: SplitProblem[]): ListedSession[] {
    const listed: ListedSession[] = [];
    for (const source of this.sources) {
      const changes = this.changesOf(source);
      const statement = this.db.prepare(source.sessions.sql);
      for (const raw of statement.iterate()) {
        const row = decodeRow(raw, source.sessions, this.query.name, problems);
        if (!row) continue;
        const key = keyOf(row, source.sessions.key);
        const hash = createHash('sha256').update(source.kind).update(signatureOf(raw));
        if (changes) hash.update(changes.get(key) ?? '');
        else if (source.parts) {
          // No cheap signature declared: the session's rows themselves, read.
          const parts = this.read({ key, source, row, signature: '' }, []).parts;
          hash.update(JSON.stringify(parts));
        }
        listed.push({ key, source, row, signature: hash.digest('hex').slice(0, 32) });
      }
    }
    return listed;
  }

  /** A session's record, as `import` reads it (its parts' rows); problems name the row. */
  read(session: ListedSession, problems: SplitProblem[]): SqliteSessionRecord {
    const { key, source, row } = session;
    const record: SqliteSessionRecord = { id: key, source: source.kind, session: row, parts: {} };
    for (const [part, q] of Object.entries(source.parts ?? {})) {
      const list: Row[] = [];
      record.parts[part] = list;
      if (!(q.tables ?? []).every((t) => this.tables.has(t))) continue;
      try {
        const statement = this.db.prepare(q.sql);
        for (const raw of statement.iterate(paramsFor(statement, row))) {
          const decoded = decodeRow(raw, q, this.query.name, problems, key);
          if (decoded) list.push(decoded);
        }
      } catch (error) {
        problems.push(
          problem(
            'corrupt-file',
            `${this.query.name}: the ${part} of session ${key} could not be read: ${describe(error)}; what came before was kept`,
            key,
          ),
        );
      }
    }
    return record;
  }

  close(): void {
    this.db.close();
  }

  // Each session's part signature, from the source's `changes` queries (undefined: it has none).
  private changesOf(source: SqliteSessionSource): Map<string, string> | undefined {
    if (!source.changes) return undefined;
    const out = new Map<string, string>();
    for (const q of source.changes) {
      if (!(q.tables ?? []).every((t) => this.tables.has(t))) continue;
      for (const raw of this.db.prepare(q.sql).iterate()) {
        const row = decodeRow(raw, { ...q, json: [] }, this.query.name, []);
        if (!row) continue;
        const key = keyOf(row, q.key);
        out.set(key, `${out.get(key) ?? ''}|${signatureOf(raw)}`);
      }
    }
    return out;
  }
}

// A row's values as text, in column order (a BLOB by its bytes).
function signatureOf(raw: unknown): string {
  const hash = createHash('sha256');
  const values: unknown[] = typeof raw === 'object' && raw !== null ? Object.values(raw) : [];
  for (const value of values) {
    if (Buffer.isBuffer(value)) hash.update(value);
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint')
      hash.update(String(value));
    else hash.update(value === null ? '\u0000null' : JSON.stringify([value]));
    hash.update('\u0001');
  }
  return hash.digest('hex');
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
