/**
 * How a provider asks for the sessions of a SQLite store, as data: the read layer runs these
 * queries (on a private snapshot of the store, see `sqlite-snapshot.ts`), so providers stay pure.
 */

/** One query and how to read its rows. */
export interface SqliteQuery {
  /** The SQL. Named parameters (`:id`, `@project_id`) are bound from the session row's columns. */
  sql: string;
  /** The column that names a row in messages (`id`, `key`). */
  key: string;
  /**
   * Columns holding JSON text, as TEXT or as a BLOB, plain or a zstd frame (Zed): parsed. A row
   * whose JSON does not parse is reported by its key and left out; the other rows go on.
   */
  json?: readonly string[];
  /** Tables a part needs beyond its generation's (a newer table): without them it has no rows. */
  tables?: readonly string[];
}

/** One generation of sessions in a store: read when its tables are there. */
export interface SqliteSessionSource {
  /** The generation, given to the provider as the record's `source` (`composer`, `aichat`). */
  kind: string;
  /** The tables it reads: a store without them skips this generation. */
  tables: readonly string[];
  /** One row per session. */
  sessions: SqliteQuery;
  /** For each session, more rows by name (its messages, parts, …), bound to the session row. */
  parts?: Readonly<Record<string, SqliteQuery>>;
  /**
   * What tells, cheaply, which sessions' parts changed (`watch` reads again only those): each
   * query gives one row per session, `key` its session's key, and columns that change whenever
   * its rows do: their count (a delete lowers it, where the latest time stays) and their latest
   * time or id. A source with parts and none of these has its sessions read whole to be compared.
   */
  changes?: readonly SqliteQuery[];
}

/** A SQLite store of an agent: what it is, and its generations of sessions. */
export interface SqliteStoreQuery {
  /** What the store is, for messages (`OpenCode's opencode.db`). */
  name: string;
  /**
   * Its generations, in order; a database with the tables of none of them is refused, naming
   * the tables it has. Only these queries run: nothing else of the store (Cursor's login tokens
   * beside its chats) is ever read.
   */
  sources: readonly SqliteSessionSource[];
}

/** A column's value as the read layer gives it: JSON columns parsed, BLOBs as UTF-8 text. */
export type SqliteValue = unknown;

/** One session of a SQLite store, the record a provider converts. */
export interface SqliteSessionRecord {
  /** The session row's key. */
  id: string;
  /** The generation it was read from (`SqliteSessionSource.kind`). */
  source: string;
  session: Record<string, SqliteValue>;
  parts: Record<string, Record<string, SqliteValue>[]>;
}
