import { unreadableRow } from '../store-rows.js';

/**
 * The vector rows' columns, narrowed by hand rather than parsed with zod: a search's first load
 * and the conversations' mean vectors read every unit (up to a million rows). Measured on 300,000
 * rows of the index's load (rowid, code, q8, source, role, created_ms): read alone 1.1 s, narrowed
 * here 1.1 s, a zod tuple a row 4.6 s, a zod object 5.5 s. A column that does not fit is the same
 * error a zod-parsed row gives (store-rows.ts), naming what was read, the row and the column.
 */

/** Where a column was read: what the rows are (as the error says it) and which row. */
export interface RowAt {
  readonly what: string;
  index: number;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Uint8Array) return 'blob';
  return typeof value;
}

/** The error for a column that does not fit: what was expected, and what it held. */
export function unreadableColumn(
  at: RowAt,
  column: string,
  expected: string,
  value: unknown,
): Error {
  return unreadableRow(
    'The SQLite index',
    at.what,
    at.index,
    `${column}: Expected ${expected}, received ${kindOf(value)}`,
  );
}

/** A raw row (`.raw()`): the array of its `columns` values. */
export function rawRow(row: unknown, columns: number, at: RowAt): readonly unknown[] {
  if (Array.isArray(row) && row.length === columns) return row;
  throw unreadableColumn(at, 'row', `${String(columns)} columns`, row);
}

/** A BLOB column (better-sqlite3 gives a Buffer). */
export function blobColumn(value: unknown, column: string, at: RowAt): Buffer {
  if (Buffer.isBuffer(value)) return value;
  throw unreadableColumn(at, column, 'blob', value);
}

/** A BLOB column that may be NULL. */
export function nullableBlobColumn(value: unknown, column: string, at: RowAt): Buffer | null {
  return value === null ? null : blobColumn(value, column, at);
}

/** A number column (INTEGER or REAL). */
export function numberColumn(value: unknown, column: string, at: RowAt): number {
  if (typeof value === 'number') return value;
  throw unreadableColumn(at, column, 'number', value);
}

/** A number column that may be NULL. */
export function nullableNumberColumn(value: unknown, column: string, at: RowAt): number | null {
  return value === null ? null : numberColumn(value, column, at);
}

/** A TEXT column. */
export function textColumn(value: unknown, column: string, at: RowAt): string {
  if (typeof value === 'string') return value;
  throw unreadableColumn(at, column, 'string', value);
}

/** A TEXT column that may be NULL. */
export function nullableTextColumn(value: unknown, column: string, at: RowAt): string | null {
  return value === null ? null : textColumn(value, column, at);
}
