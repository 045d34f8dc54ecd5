import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import { parseRow, parseRows } from '../store-rows.js';

/** Rows the SQLite index gave, parsed with `schema` (see store-rows.ts): never cast. */
export function sqliteRows<T>(
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  rows: readonly unknown[],
  what: string,
): T[] {
  return parseRows(schema, rows, what, 'The SQLite index');
}

/** One row the SQLite index gave, or undefined when it gave none. */
export function sqliteRow<T>(
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  row: unknown,
  what: string,
): T | undefined {
  return row === undefined ? undefined : parseRow(schema, row, what, 'The SQLite index');
}

/** A column of text (`.pluck()`), such as table or index names. */
export const Text = z.string();
/** A column of text that may be NULL. */
export const NullableText = z.string().nullable();
/** An integer column SQLite gives as a number (or a bigint in safe-integer mode). */
export const Integer = z.union([z.number(), z.bigint()]).transform(Number);
/** A 0/1 column read as a boolean. */
export const Flag = z.number().transform((value) => value === 1);

/** A row of `PRAGMA table_info`, as far as it is read: the column's name. */
export const ColumnRow = z.object({ name: Text });

/** The names of the tables a store file holds. */
export function tableNames(db: Database.Database): string[] {
  const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all();
  return sqliteRows(Text, rows, 'table name');
}

/** What a conversation looked like when indexed (`conversation_state`). */
export const StateRow = z.object({ content_hash: Text, deep: z.number() });
