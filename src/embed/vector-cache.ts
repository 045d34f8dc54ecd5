import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3-multiple-ciphers';
import { openDatabase } from '../at-rest/open-database.js';

/** Statements take at most this many parameters at a time (SQLite's default limit is higher). */
const CHUNK = 500;

/** A vector as a blob of little-endian float32s. */
function toBlob(vector: Float32Array): Buffer {
  const blob = Buffer.alloc(vector.length * 4);
  for (let i = 0; i < vector.length; i++) blob.writeFloatLE(vector[i] ?? 0, i * 4);
  return blob;
}

function fromBlob(blob: Buffer): Float32Array {
  const vector = new Float32Array(blob.length / 4);
  for (let i = 0; i < vector.length; i++) vector[i] = blob.readFloatLE(i * 4);
  return vector;
}

/**
 * Vectors already computed, by model id and text hash, in a SQLite file: reindexing or
 * re-importing never embeds the same text twice with the same model.
 */
export class VectorCache {
  private constructor(private readonly db: Database.Database) {}

  /** Opens (or creates) the cache file, with its folder's SQLCipher key when it is encrypted. */
  static open(file: string, key: string | undefined): VectorCache {
    mkdirSync(dirname(file), { recursive: true });
    const db = openDatabase(file, key);
    db.pragma('busy_timeout = 10000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // A forgotten vector's bytes are overwritten, not left in free pages.
    db.pragma('secure_delete = ON');
    db.exec(`CREATE TABLE IF NOT EXISTS vectors (
      model_id TEXT NOT NULL,
      text_hash TEXT NOT NULL,
      vector BLOB NOT NULL,
      PRIMARY KEY (model_id, text_hash)
    ) WITHOUT ROWID`);
    return new VectorCache(db);
  }

  /** The cached vectors among these hashes (absent ones are simply missing from the map). */
  get(modelId: string, textHashes: readonly string[]): Map<string, Float32Array> {
    const found = new Map<string, Float32Array>();
    for (let i = 0; i < textHashes.length; i += CHUNK) {
      const slice = textHashes.slice(i, i + CHUNK);
      const rows = this.db
        .prepare<unknown[], { text_hash: string; vector: Buffer }>(
          `SELECT text_hash, vector FROM vectors WHERE model_id = ? AND text_hash IN (${slice.map(() => '?').join(',')})`,
        )
        .all(modelId, ...slice);
      for (const row of rows) found.set(row.text_hash, fromBlob(row.vector));
    }
    return found;
  }

  /** Stores vectors (replacing any for the same text), in one transaction. */
  put(modelId: string, entries: readonly { textHash: string; vector: Float32Array }[]): void {
    const insert = this.db.prepare(
      'INSERT OR REPLACE INTO vectors (model_id, text_hash, vector) VALUES (?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const entry of entries) insert.run(modelId, entry.textHash, toBlob(entry.vector));
    })();
  }

  /** Forgets vectors (a deleted or redacted text leaves none behind). */
  delete(modelId: string, textHashes: readonly string[]): void {
    this.db.transaction(() => {
      for (let i = 0; i < textHashes.length; i += CHUNK) {
        const slice = textHashes.slice(i, i + CHUNK);
        this.db
          .prepare(
            `DELETE FROM vectors WHERE model_id = ? AND text_hash IN (${slice.map(() => '?').join(',')})`,
          )
          .run(modelId, ...slice);
      }
    })();
  }

  /**
   * Forgets every vector of a model whose text is not among these hashes (texts deleted,
   * changed or redacted since); returns how many were forgotten.
   */
  keepOnly(modelId: string, keep: ReadonlySet<string>): number {
    const stale = this.db
      .prepare<[string], string>('SELECT text_hash FROM vectors WHERE model_id = ?')
      .pluck()
      .all(modelId)
      .filter((hash) => !keep.has(hash));
    this.delete(modelId, stale);
    return stale.length;
  }

  /** Closes the file. */
  close(): void {
    this.db.close();
  }
}
