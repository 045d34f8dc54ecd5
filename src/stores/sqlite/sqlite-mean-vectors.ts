import type Database from 'better-sqlite3-multiple-ciphers';
import type { ConversationVector } from '../vector-index.js';
import { z } from 'zod';
import { fromBlob } from './sqlite-vector-rows.js';
import { nullableBlobColumn, rawRow, textColumn, type RowAt } from './sqlite-raw-row.js';
import { Text, sqliteRows } from './sqlite-rows.js';

const ChosenRow = z.object({ owner: Text, title: Text, source: Text });

// A unit's vector added to a sum: from its int8 copy when it has one (a quarter of the bytes to
// read: measured at 10,000 conversations, 60,000 units, this halved the read), else the float32.
function addTo(sum: Float32Array, q8: Buffer | null, vector: Buffer | null): void {
  if (q8) {
    const scale = new DataView(q8.buffer, q8.byteOffset, 4).getFloat32(0, true);
    const values = new Int8Array(q8.buffer, q8.byteOffset + 4, q8.length - 4);
    for (let i = 0; i < values.length; i++) sum[i] = (sum[i] ?? 0) + (values[i] ?? 0) * scale;
  } else if (vector) {
    const values = fromBlob(vector);
    for (let i = 0; i < values.length; i++) sum[i] = (sum[i] ?? 0) + (values[i] ?? 0);
  }
}

// Every unit's vector added to its conversation's sum (those not chosen are skipped).
function sumUnits(db: Database.Database, sums: Map<string, Sum>, dimensions: number): void {
  const units = db
    .prepare(`SELECT owner, q8, CASE WHEN q8 IS NULL THEN vector END AS vector FROM vector_unit`)
    .raw();
  // Counted from -1: the row's number goes up first, as a unit skipped goes on to the next.
  const at: RowAt = { what: 'vector', index: -1 };
  for (const row of units.iterate()) {
    at.index++;
    const [owner, q8Value, vectorValue] = rawRow(row, 3, at);
    const entry = sums.get(textColumn(owner, 'owner', at));
    if (!entry) continue;
    const q8 = nullableBlobColumn(q8Value, 'q8', at);
    const vector = nullableBlobColumn(vectorValue, 'vector', at);
    entry.sum ??= new Float32Array(dimensions || (q8 ? q8.length - 4 : (vector?.length ?? 0) / 4));
    addTo(entry.sum, q8, vector);
    entry.n++;
  }
}

interface Sum {
  sum: Float32Array | undefined;
  n: number;
}

/**
 * The latest `limit` embedded conversations with the mean of their vectors: the units are read
 * one at a time (a large history holds millions), only the sums are kept.
 */
export function meanVectors(db: Database.Database, limit: number): ConversationVector[] {
  const chosen = sqliteRows(
    ChosenRow,
    db
      .prepare(
        `SELECT c.id AS owner, coalesce(c.name, '') AS title, coalesce(c.source, '') AS source
         FROM "Conversation" c JOIN vector_state s ON s.owner = c.id
         ORDER BY c.created_at DESC, c.id LIMIT ?`,
      )
      .all(limit),
    'conversation',
  );
  const sums = new Map<string, Sum>();
  for (const c of chosen) sums.set(c.owner, { sum: undefined, n: 0 });
  const dimensions = Number(
    db.prepare(`SELECT value FROM meta WHERE key = 'vector_dimensions'`).pluck().get() ?? 0,
  );
  sumUnits(db, sums, dimensions);
  const out: ConversationVector[] = [];
  for (const c of chosen) {
    const entry = sums.get(c.owner);
    if (!entry?.sum) continue;
    for (let i = 0; i < entry.sum.length; i++) entry.sum[i] = (entry.sum[i] ?? 0) / entry.n;
    out.push({ ...c, vector: entry.sum });
  }
  return out;
}
