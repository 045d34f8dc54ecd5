import type Database from 'better-sqlite3-multiple-ciphers';
import { BinaryIndex } from '../vectors/binary-index.js';
import { quantizeVector } from '../vectors/int8-vectors.js';
import {
  blobColumn,
  nullableNumberColumn,
  nullableTextColumn,
  numberColumn,
  rawRow,
  type RowAt,
} from './sqlite-raw-row.js';
import { ColumnRow, sqliteRows } from './sqlite-rows.js';

/**
 * How the vector table's rows become the in-memory index, and the int8 column that index needs:
 * added to stores made before it, and filled there once from the float vectors.
 */

function hasQ8(db: Database.Database): boolean {
  const columns = db.prepare(`PRAGMA table_info(vector_unit)`).all();
  return sqliteRows(ColumnRow, columns, 'column').some((c) => c.name === 'q8');
}

/** Adds the int8 column to a store made before it existed, and fills it (inside `migrate`). */
export function addQ8Column(db: Database.Database): void {
  if (hasQ8(db)) return;
  db.exec(`ALTER TABLE vector_unit ADD COLUMN q8 BLOB`);
  const batch = db.prepare(
    `SELECT rowid, vector FROM vector_unit WHERE rowid > ? ORDER BY rowid LIMIT 2000`,
  );
  const update = db.prepare(`UPDATE vector_unit SET q8 = ? WHERE rowid = ?`);
  // In rowid order from where the last batch stopped: each batch reads only its own rows.
  const at: RowAt = { what: 'vector', index: 0 };
  for (let last = -Infinity; ;) {
    const rows = batch.raw().all(last);
    if (rows.length === 0) break;
    for (const row of rows) {
      const [rowid, vector] = rawRow(row, 2, at);
      last = numberColumn(rowid, 'rowid', at);
      update.run(quantizeVector(fromBlob(blobColumn(vector, 'vector', at))), last);
      at.index++;
    }
  }
}

/** A float32 vector from its blob (copied: a Buffer's offset in its pool need not be aligned). */
export function fromBlob(blob: Buffer): Float32Array {
  const copy = new Float32Array(blob.byteLength / 4);
  new Uint8Array(copy.buffer).set(blob);
  return copy;
}

function codeOf(blob: Buffer): Uint32Array {
  const code = new Uint32Array(Math.ceil(blob.byteLength / 4));
  new Uint8Array(code.buffer).set(blob);
  return code;
}

/** Every unit's code, int8 vector and filter values, read into a new index. */
export function loadBinaryIndex(db: Database.Database, dimensions: number): BinaryIndex {
  const count = Number(db.prepare(`SELECT count(*) FROM vector_unit`).pluck().get());
  const index = new BinaryIndex(dimensions, Math.max(1024, count));
  // Every row has its int8 vector: the one insert writes it, and `addQ8Column` filled older rows
  // (a store is brought up to date before it is read).
  const rows = db
    .prepare(`SELECT rowid, code, q8, source, role, created_ms FROM vector_unit`)
    .raw()
    .iterate();
  const at: RowAt = { what: 'vector', index: 0 };
  for (const row of rows) {
    const [id, code, vector, source, role, time] = rawRow(row, 6, at);
    index.add({
      id: numberColumn(id, 'rowid', at),
      code: codeOf(blobColumn(code, 'code', at)),
      vector: blobColumn(vector, 'q8', at),
      source: index.symbol(nullableTextColumn(source, 'source', at)),
      role: index.symbol(nullableTextColumn(role, 'role', at)),
      time: nullableNumberColumn(time, 'created_ms', at) ?? NaN,
    });
    at.index++;
  }
  return index;
}
