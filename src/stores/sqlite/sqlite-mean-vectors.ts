import type Database from 'better-sqlite3';
import type { ConversationVector } from '../vector-index.js';
import { fromBlob } from './sqlite-vector-rows.js';

/**
 * The latest `limit` embedded conversations with the mean of their vectors: the units are read
 * one at a time (a large history holds millions), only the sums are kept.
 */
export function meanVectors(db: Database.Database, limit: number): ConversationVector[] {
  const chosen = db
    .prepare(
      `SELECT c.id AS owner, coalesce(c.name, '') AS title, coalesce(c.source, '') AS source
       FROM "Conversation" c JOIN vector_state s ON s.owner = c.id
       ORDER BY c.created_at DESC, c.id LIMIT ?`,
    )
    .all(limit) as { owner: string; title: string; source: string }[];
  const sums = new Map<string, { sum: Float32Array | undefined; n: number }>();
  for (const c of chosen) sums.set(c.owner, { sum: undefined, n: 0 });
  const units = db.prepare(`SELECT owner, vector FROM vector_unit`).raw();
  for (const row of units.iterate() as Iterable<[string, Buffer]>) {
    const entry = sums.get(row[0]);
    if (!entry) continue;
    const vector = fromBlob(row[1]);
    entry.sum ??= new Float32Array(vector.length);
    for (let i = 0; i < vector.length; i++) entry.sum[i] = (entry.sum[i] ?? 0) + (vector[i] ?? 0);
    entry.n++;
  }
  const out: ConversationVector[] = [];
  for (const c of chosen) {
    const entry = sums.get(c.owner);
    if (!entry?.sum) continue;
    for (let i = 0; i < entry.sum.length; i++) entry.sum[i] = (entry.sum[i] ?? 0) / entry.n;
    out.push({ ...c, vector: entry.sum });
  }
  return out;
}
