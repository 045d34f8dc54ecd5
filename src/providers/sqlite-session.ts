import type { JsonObject } from '../model/pam.js';
import type { SqliteSessionRecord } from '../read/sqlite-query.js';
import { baseName } from '../read/entry.js';
import { asArray, asObject, asString } from './untrusted.js';

/** The first bytes of every SQLite 3 database file. */
const SQLITE_HEADER = 'SQLite format 3\u0000';

/** A record of a SQLite store as the read layer gives it, or undefined when it is not one. */
export function sqliteSession(raw: unknown): SqliteSessionRecord | undefined {
  const record = asObject(raw);
  const session = asObject(record?.session);
  const id = asString(record?.id);
  if (!record || !session || id === undefined) return undefined;
  const parts: SqliteSessionRecord['parts'] = {};
  for (const [name, rows] of Object.entries(asObject(record.parts) ?? {}))
    parts[name] = (asArray(rows) ?? []).flatMap((row): JsonObject[] => {
      const object = asObject(row);
      return object ? [object] : [];
    });
  return { id, source: asString(record.source) ?? '', session, parts };
}

/** True when a file is a SQLite database named one of `names` (its first bytes say so). */
export function isSqliteNamed(path: string, head: string, names: readonly string[]): boolean {
  return names.includes(baseName(path).toLowerCase()) && head.startsWith(SQLITE_HEADER);
}

/** The rows of a part, each a plain object. */
export function rowsOf(record: SqliteSessionRecord, part: string): JsonObject[] {
  return record.parts[part] ?? [];
}
