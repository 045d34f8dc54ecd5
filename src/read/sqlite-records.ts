import type Database from 'better-sqlite3-multiple-ciphers';
import type { Entry } from './entry.js';
import type { RawRecord, SplitItem, SplitProblem } from './record.js';
import { snapshotStore, StoreBusyError } from './sqlite-snapshot.js';
import type {
  SqliteQuery,
  SqliteSessionRecord,
  SqliteSessionSource,
  SqliteStoreQuery,
} from './sqlite-query.js';

type Row = Record<string, unknown>;

/**
 * Streams an agent's SQLite store as one record per session (a `SqliteSessionRecord` as JSON):
 * the provider's queries run on a private copy of the store (`snapshotStore`), never on the
 * agent's own files. A store with none of the expected tables, a store that cannot be opened
 * and a row whose JSON does not parse are problems naming the file and the row; the other
 * sessions go on.
 */
export async function* readSqliteRecords(
  entry: Entry,
  query: SqliteStoreQuery,
  onBytes?: (bytes: number) => void,
): AsyncGenerator<SplitItem> {
  let snapshot;
  try {
    snapshot = await snapshotStore(entry);
  } catch (error) {
    yield problem(
      error instanceof StoreBusyError ? 'store-busy' : 'unreadable-file',
      `${query.name} could not be read: ${describe(error)}`,
    );
    return;
  }
  // Two connections: one walks the sessions while the other reads each one's rows (a
  // better-sqlite3 connection runs nothing else while a statement iterates).
  const opened: Database.Database[] = [];
  try {
    try {
      // Loaded here: `import 'chatgraph'` loads no SQLite (test/public-api.test.ts).
      const { default: Sqlite } = await import('better-sqlite3-multiple-ciphers');
      await loadDecompressor();
      for (let n = 0; n < 2; n++) {
        const db = new Sqlite(snapshot.file, {
          readonly: !snapshot.hotJournal,
          fileMustExist: true,
          timeout: 1000,
        });
        opened.push(db);
        db.pragma('query_only = 1');
      }
    } catch (error) {
      yield problem('unreadable-file', `${query.name} could not be opened: ${describe(error)}`);
      return;
    }
    const [walk, look] = opened as [Database.Database, Database.Database];
    yield* readOpened({ walk, look }, query, entry);
    onBytes?.(entry.size ?? 0);
  } finally {
    for (const db of opened) db.close();
    await snapshot.close();
  }
}

interface Connections {
  walk: Database.Database;
  look: Database.Database;
}

function* readOpened(db: Connections, query: SqliteStoreQuery, entry: Entry): Generator<SplitItem> {
  let tables: Set<string>;
  try {
    tables = new Set(
      db.look
        .prepare(`SELECT name FROM sqlite_master WHERE type IN ('table', 'view')`)
        .pluck()
        .all()
        .filter((name): name is string => typeof name === 'string'),
    );
  } catch (error) {
    // Not a database at all (a file that only starts like one), or one that is encrypted.
    yield problem('unreadable-file', `${query.name} could not be read: ${describe(error)}`);
    return;
  }
  const sources = query.sources.filter((s) => s.tables.every((t) => tables.has(t)));
  if (sources.length === 0) {
    const expected = [...new Set(query.sources.flatMap((s) => s.tables))].join(', ');
    const found = [...tables].sort().join(', ') || 'none';
    yield problem(
      'not-an-agent-store',
      `"${entry.displayPath}" is a SQLite database but not ${query.name}: it has none of its tables (${expected}); its tables: ${found}`,
    );
    return;
  }
  let index = 0;
  for (const source of sources) {
    for (const item of sessionsOf(db, source, query.name, tables)) {
      if (item.kind === 'problem') {
        yield item;
        continue;
      }
      const bytes = Buffer.from(JSON.stringify(item.record), 'utf8');
      const record: RawRecord = { kind: 'record', path: '', index, offset: 0, bytes };
      index++;
      yield record;
    }
  }
}

type SessionItem = { kind: 'session'; record: SqliteSessionRecord } | SplitProblem;

function* sessionsOf(
  db: Connections,
  source: SqliteSessionSource,
  name: string,
  tables: ReadonlySet<string>,
): Generator<SessionItem> {
  let parts;
  let rows: Iterator<unknown>;
  try {
    parts = Object.entries(source.parts ?? {}).map(
      ([part, q]) =>
        [
          part,
          q,
          (q.tables ?? []).every((t) => tables.has(t)) ? db.look.prepare(q.sql) : undefined,
        ] as const,
    );
    rows = db.walk.prepare(source.sessions.sql).iterate();
  } catch (error) {
    yield problem(
      'unreadable-file',
      `${name}: its ${source.kind} sessions could not be listed: ${describe(error)}`,
    );
    return;
  }
  try {
    yield* eachSession(rows, parts, source, name);
  } finally {
    // Left early: the walking statement must end before its connection closes.
    rows.return?.();
  }
}

function* eachSession(
  rows: Iterator<unknown>,
  parts: (readonly [string, SqliteQuery, Database.Statement | undefined])[],
  source: SqliteSessionSource,
  name: string,
): Generator<SessionItem> {
  const problems: SplitProblem[] = [];
  for (;;) {
    let next;
    try {
      next = rows.next();
    } catch (error) {
      yield problem(
        'corrupt-file',
        `${name}: listing its ${source.kind} sessions stopped: ${describe(error)}; the sessions before it were read`,
      );
      return;
    }
    if (next.done === true) return;
    const session = decodeRow(next.value, source.sessions, name, problems);
    yield* problems.splice(0);
    if (!session) continue;
    const id = keyOf(session, source.sessions.key);
    const record: SqliteSessionRecord = { id, source: source.kind, session, parts: {} };
    for (const [part, q, statement] of parts) {
      const list: Row[] = [];
      if (!statement) {
        record.parts[part] = list;
        continue;
      }
      try {
        for (const raw of statement.iterate(paramsFor(statement, session))) {
          const row = decodeRow(raw, q, name, problems, id);
          if (row) list.push(row);
        }
      } catch (error) {
        problems.push(
          problem(
            'corrupt-file',
            `${name}: the ${part} of session ${id} could not be read: ${describe(error)}; what came before was kept`,
            id,
          ),
        );
      }
      record.parts[part] = list;
    }
    yield* problems.splice(0);
    yield { kind: 'session', record };
  }
}

// better-sqlite3 refuses a named parameter the object lacks, and ignores none it has: only the
// statement's own parameters are passed, each from the session row (null when it has none).
/** The named parameters of a statement, each from the session row's column of that name. */
export function paramsFor(statement: Database.Statement, session: Row): Row {
  const params: Row = {};
  const source = statement.source;
  for (const match of source.matchAll(/[:@$]([A-Za-z_][A-Za-z0-9_]*)/g)) {
    const key = match[1] as string;
    const value = session[key];
    params[key] =
      value === undefined || (typeof value === 'object' && value !== null) ? null : value;
  }
  return params;
}

/** A row as a plain object: its JSON columns parsed (a failure is a problem), BLOBs as text. */
export function decodeRow(
  raw: unknown,
  q: SqliteQuery,
  name: string,
  problems: SplitProblem[],
  session?: string,
): Row | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const row: Row = {};
  for (const [column, value] of Object.entries(raw)) row[column] = value;
  const key = keyOf(row, q.key);
  for (const column of q.json ?? []) {
    const value = row[column];
    if (value === null || value === undefined) continue;
    try {
      row[column] = JSON.parse(textOf(value)) as unknown;
    } catch (error) {
      problems.push(
        problem(
          'malformed-row',
          `${name}: row ${key}${session !== undefined && session !== key ? ` (session ${session})` : ''}: its ${column} is not JSON (${describe(error)}); left out`,
          key,
        ),
      );
      return undefined;
    }
  }
  // Other BLOBs travel as text; JSON has no bytes.
  for (const [column, value] of Object.entries(row))
    if (Buffer.isBuffer(value)) row[column] = value.toString('utf8');
  return row;
}

// fzstd, loaded with the first store read.
let decompress: (data: Uint8Array) => Uint8Array = () => {
  throw new Error('fzstd is not loaded');
};

/** Loads the zstd decompressor a store's compressed JSON needs (Zed's), once. */
export async function loadDecompressor(): Promise<void> {
  ({ decompress } = await import('fzstd'));
}

// A zstd frame starts with the magic number 0xFD2FB528, little-endian (Zed's `data_type` zstd).
const ZSTD_MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

function textOf(value: unknown): string {
  if (Buffer.isBuffer(value)) {
    const bytes = value.subarray(0, 4).equals(ZSTD_MAGIC) ? Buffer.from(decompress(value)) : value;
    return bytes.toString('utf8');
  }
  return typeof value === 'string' ? value : String(value);
}

/** A row's key column as text (`?` when it has none). */
export function keyOf(row: Row, column: string): string {
  const value = row[column];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '?';
}

/** A problem of the store, naming the row it is about when there is one. */
export function problem(code: string, message: string, record?: string): SplitProblem {
  return { kind: 'problem', code, message, offset: 0, ...(record !== undefined ? { record } : {}) };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
