import type Database from 'better-sqlite3-multiple-ciphers';
import type { Memory, Relation } from '../../model/pam.js';
import { makeSnippet, snippetTerms } from '../../search/snippet.js';
import {
  matchOf,
  memoryNode,
  memoryText,
  type MemoryIndex,
  type MemoryMatch,
  type MemoryVector,
  type MemoryVectorModel,
} from '../memory-index.js';
import { MATCH_END, MATCH_START } from '../store.js';
import { TOKENIZER } from './full-text.js';
import { writeMemoryRelations } from './sqlite-memory-relations.js';
import { toFtsQuery } from './fts-query.js';
import { columnsOf, quote } from './sqlite-schema.js';
import { z } from 'zod';
import { Integer, Text, sqliteRow, sqliteRows } from './sqlite-rows.js';

// A memory's row as read whole (`m.*`): its properties, read by name in matchOf.
const AnyRow = z.record(z.string(), z.unknown());
const MatchRow = z.object({ id: Text, words: Text, score: z.number() }).catchall(z.unknown());
const VectorRow = z.tuple([Text, z.instanceof(Buffer)]);
const VectorModelRow = z.object({
  id: Text,
  dimensions: z.number(),
  count: z.number(),
}) satisfies z.ZodType<MemoryVectorModel>;

/** The words of the memories (a small table, rebuilt whole with the memories). */
const MEMORY_FTS = 'memory_fts';
/**
 * The memories' vectors, from the bundle's `embeddings.json`: a few hundred or thousand rows,
 * scanned whole by a search (a millisecond or two), so they need no index of their own and stay
 * out of the messages' vector scan.
 */
const MEMORY_VECTORS = 'memory_vector';

/** The memories' vectors of one model as a search compares them: a row of `matrix` each. */
interface LoadedVectors {
  key: string;
  ids: string[];
  matrix: Float32Array;
  norms: Float32Array;
}

/** The dot product of `n` values of `a` from `i` and of `b` from `j`. */
function dotAt(a: Float32Array, i: number, b: Float32Array, j: number, n: number): number {
  let sum = 0;
  for (let k = 0; k < n; k++) sum += (a[i + k] as number) * (b[j + k] as number);
  return sum;
}

/** The embedded store's Memory nodes (the "Memory" table) and their word index. */
export class SqliteMemories implements MemoryIndex {
  private loaded: LoadedVectors | undefined;

  constructor(private readonly db: Database.Database) {}

  /** Creates the word index (idempotent; the Memory table comes with the graph's schema). */
  static createSchema(db: Database.Database): void {
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${MEMORY_FTS} USING fts5(id UNINDEXED, content, tokenize='${TOKENIZER}')`,
    );
    db.exec(
      `CREATE TABLE IF NOT EXISTS ${MEMORY_VECTORS} (memory_id TEXT PRIMARY KEY, model TEXT NOT NULL, dimensions INTEGER NOT NULL, vector BLOB NOT NULL) WITHOUT ROWID`,
    );
  }

  /** Empties the word index (with the node tables, by `clear`). */
  static clear(db: Database.Database): void {
    if (hasTable(db)) db.exec(`DELETE FROM ${MEMORY_FTS}`);
    if (hasTable(db, MEMORY_VECTORS)) db.exec(`DELETE FROM ${MEMORY_VECTORS}`);
  }

  replace(
    memories: readonly Memory[],
    vectors: readonly MemoryVector[] = [],
    relations: readonly Relation[] = [],
  ): Promise<void> {
    const columns = ['id', ...columnsOf('Memory')];
    const insert = this.db.prepare(
      `INSERT INTO "Memory" (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    // An edge only to a node the store holds; owned by the conversation, so deleting or
    // re-importing it drops the edge as Neo4j's DETACH DELETE does (the next sync adds it back).
    const toMessage = this.db.prepare(
      `INSERT OR IGNORE INTO "DERIVED_FROM" (src, dst, owner) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM "Message" WHERE id = ?)`,
    );
    const toConversation = this.db.prepare(
      `INSERT OR IGNORE INTO "DERIVED_FROM_CONVERSATION" (src, dst, owner) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM "Conversation" WHERE id = ?)`,
    );
    const words = this.db.prepare(
      `INSERT INTO ${MEMORY_FTS} (rowid, id, content) VALUES (?, ?, ?)`,
    );
    const known = new Set(memories.map((m) => m.id));
    const withVectors = hasTable(this.db, MEMORY_VECTORS);
    // Cypher's projection of the graph is kept until this changes (sqlite-graph-source.ts).
    const bump = this.db.prepare(
      `INSERT INTO meta (key, value) VALUES ('version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    );
    this.db.transaction(() => {
      bump.run(`memories-${Date.now()}-${Math.random()}`);
      this.db.exec(
        `DELETE FROM "Memory"; DELETE FROM "DERIVED_FROM"; DELETE FROM "DERIVED_FROM_CONVERSATION"; DELETE FROM ${MEMORY_FTS}`,
      );
      for (const memory of memories) {
        const { properties, derivedFrom } = memoryNode(memory);
        const made = insert.run(
          memory.id,
          ...columnsOf('Memory').map((c) => properties[c] ?? null),
        );
        if (derivedFrom) {
          const edge = derivedFrom.kind === 'message' ? toMessage : toConversation;
          edge.run(memory.id, derivedFrom.id, derivedFrom.owner, derivedFrom.id);
        }
        words.run(made.lastInsertRowid, memory.id, memoryText(memory));
      }
      writeMemoryRelations(this.db, relations, { clear: true });
      if (withVectors) this.writeVectors(vectors.filter((v) => known.has(v.memoryId)));
    })();
    return Promise.resolve();
  }

  upsert(
    memories: readonly Memory[],
    vectors: readonly MemoryVector[] = [],
    relations: readonly Relation[] = [],
  ): Promise<void> {
    const columns = ['id', ...columnsOf('Memory')];
    const insert = this.db.prepare(
      `INSERT INTO "Memory" (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    const rowOf = this.db.prepare(`SELECT rowid FROM "Memory" WHERE id = ?`).pluck();
    const dropNode = this.db.prepare(`DELETE FROM "Memory" WHERE id = ?`);
    const dropEdges = [
      this.db.prepare(`DELETE FROM "DERIVED_FROM" WHERE src = ?`),
      this.db.prepare(`DELETE FROM "DERIVED_FROM_CONVERSATION" WHERE src = ?`),
    ];
    // Found by its rowid (the node's, as written here): by id, the word index is read whole.
    const dropWordsAt = this.db.prepare(`DELETE FROM ${MEMORY_FTS} WHERE rowid = ? AND id = ?`);
    const dropWords = this.db.prepare(`DELETE FROM ${MEMORY_FTS} WHERE id = ?`);
    const words = this.db.prepare(
      `INSERT INTO ${MEMORY_FTS} (rowid, id, content) VALUES (?, ?, ?)`,
    );
    // A store written before the word index took the node's rowid may hold that rowid already.
    const wordsTaken = this.db.prepare(`SELECT 1 FROM ${MEMORY_FTS} WHERE rowid = ?`);
    const wordsAnywhere = this.db.prepare(`INSERT INTO ${MEMORY_FTS} (id, content) VALUES (?, ?)`);
    const toMessage = this.db.prepare(
      `INSERT OR IGNORE INTO "DERIVED_FROM" (src, dst, owner) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM "Message" WHERE id = ?)`,
    );
    const toConversation = this.db.prepare(
      `INSERT OR IGNORE INTO "DERIVED_FROM_CONVERSATION" (src, dst, owner) SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM "Conversation" WHERE id = ?)`,
    );
    const withVectors = hasTable(this.db, MEMORY_VECTORS);
    const bump = this.db.prepare(
      `INSERT INTO meta (key, value) VALUES ('version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    );
    this.db.transaction(() => {
      bump.run(`memories-${Date.now()}-${Math.random()}`);
      for (const memory of memories) {
        const rowid = sqliteRow(Integer, rowOf.get(memory.id), 'memory');
        if (rowid !== undefined) {
          if (dropWordsAt.run(rowid, memory.id).changes === 0) dropWords.run(memory.id);
          dropNode.run(memory.id);
        }
        for (const drop of dropEdges) drop.run(memory.id);
        const { properties, derivedFrom } = memoryNode(memory);
        const made = insert.run(
          memory.id,
          ...columnsOf('Memory').map((c) => properties[c] ?? null),
        );
        if (derivedFrom) {
          const edge = derivedFrom.kind === 'message' ? toMessage : toConversation;
          edge.run(memory.id, derivedFrom.id, derivedFrom.owner, derivedFrom.id);
        }
        if (wordsTaken.get(made.lastInsertRowid) === undefined)
          words.run(made.lastInsertRowid, memory.id, memoryText(memory));
        else wordsAnywhere.run(memory.id, memoryText(memory));
      }
      writeMemoryRelations(this.db, relations, { clear: false });
      if (withVectors) {
        const drop = this.db.prepare(`DELETE FROM ${MEMORY_VECTORS} WHERE memory_id = ?`);
        for (const memory of memories) drop.run(memory.id);
        const known = this.db.prepare(`SELECT 1 FROM "Memory" WHERE id = ?`);
        this.insertVectors(vectors.filter((v) => known.get(v.memoryId) !== undefined));
      }
    })();
    return Promise.resolve();
  }

  private writeVectors(vectors: readonly MemoryVector[]): void {
    this.db.exec(`DELETE FROM ${MEMORY_VECTORS}`);
    this.insertVectors(vectors);
  }

  private insertVectors(vectors: readonly MemoryVector[]): void {
    const insert = this.db.prepare(
      `INSERT OR REPLACE INTO ${MEMORY_VECTORS} (memory_id, model, dimensions, vector) VALUES (?, ?, ?, ?)`,
    );
    for (const v of vectors)
      insert.run(
        v.memoryId,
        v.model,
        v.vector.length,
        Buffer.from(v.vector.buffer, v.vector.byteOffset, v.vector.byteLength),
      );
  }

  /**
   * The active memories' vectors of one model, read once per change of the graph (the `version`
   * every memory write bumps; a reader sees another process's writes by it).
   */
  private vectorsOf(model: string, dimensions: number): LoadedVectors {
    const version: unknown = this.db
      .prepare(`SELECT value FROM meta WHERE key = 'version'`)
      .pluck()
      .get();
    const key = `${String(version)}\u0000${model}\u0000${String(dimensions)}`;
    if (this.loaded?.key === key) return this.loaded;
    const read = this.db
      .prepare(
        `SELECT v.memory_id, v.vector FROM ${MEMORY_VECTORS} v JOIN "Memory" m ON m.id = v.memory_id
         WHERE v.model = ? AND v.dimensions = ? AND m.status = 'active'`,
      )
      .raw()
      .all(model, dimensions);
    const rows = sqliteRows(VectorRow, read, 'memory vector');
    const matrix = new Float32Array(rows.length * dimensions);
    const norms = new Float32Array(rows.length);
    rows.forEach(([, blob], i) => {
      // Copied byte by byte: a Buffer's offset in its pool need not be 4-byte aligned.
      new Uint8Array(matrix.buffer, i * dimensions * 4, dimensions * 4).set(blob);
      norms[i] = Math.sqrt(dotAt(matrix, i * dimensions, matrix, i * dimensions, dimensions));
    });
    this.loaded = { key, ids: rows.map(([id]) => id), matrix, norms };
    return this.loaded;
  }

  searchByMeaning(vector: Float32Array, model: string, limit: number): Promise<MemoryMatch[]> {
    if (!hasTable(this.db, MEMORY_VECTORS)) return Promise.resolve([]);
    const dimensions = vector.length;
    const { ids, matrix, norms } = this.vectorsOf(model, dimensions);
    const queryNorm = Math.sqrt(dotAt(vector, 0, vector, 0, dimensions));
    const scored = ids
      .map((id, i) => {
        const norm = (norms[i] ?? 0) * queryNorm;
        const score = norm === 0 ? 0 : dotAt(vector, 0, matrix, i * dimensions, dimensions) / norm;
        return { id, score };
      })
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
    const read = this.db.prepare(`SELECT * FROM "Memory" WHERE id = ?`);
    const none = snippetTerms('');
    const matches: MemoryMatch[] = [];
    for (const { id, score } of scored) {
      const row = sqliteRow(AnyRow, read.get(id), 'memory');
      if (!row) continue;
      const content = typeof row.content === 'string' ? row.content : '';
      matches.push(matchOf(id, score, makeSnippet(content, none, MATCH_START, MATCH_END), row));
    }
    return Promise.resolve(matches);
  }

  vectorModel(): Promise<MemoryVectorModel | undefined> {
    if (!hasTable(this.db, MEMORY_VECTORS)) return Promise.resolve(undefined);
    const row = this.db
      .prepare(
        `SELECT model AS id, dimensions, count(*) AS count FROM ${MEMORY_VECTORS} GROUP BY model, dimensions ORDER BY count DESC LIMIT 1`,
      )
      .get();
    return Promise.resolve(sqliteRow(VectorModelRow, row, 'memory vector model'));
  }

  search(text: string, limit: number, options: { all?: boolean } = {}): Promise<MemoryMatch[]> {
    const fts = toFtsQuery(text);
    // A store opened read-only before this version has no memory index: no memory matches.
    if (fts === undefined || !hasTable(this.db)) return Promise.resolve([]);
    const found = this.db
      .prepare(
        `SELECT t.id, t.content AS words, bm25(${MEMORY_FTS}) AS score, m.*
         FROM ${MEMORY_FTS} t JOIN "Memory" m ON m.id = t.id
         WHERE ${MEMORY_FTS} MATCH ? ${options.all ? '' : `AND m.status = 'active'`} ORDER BY score LIMIT ?`,
      )
      .all(fts.match, limit);
    const rows = sqliteRows(MatchRow, found, 'memory match');
    const terms = snippetTerms(text);
    return Promise.resolve(
      rows.map((row) =>
        matchOf(
          row.id,
          -row.score,
          makeSnippet(
            typeof row.content === 'string' ? row.content : row.words,
            terms,
            MATCH_START,
            MATCH_END,
          ),
          row,
        ),
      ),
    );
  }
}

function hasTable(db: Database.Database, name = MEMORY_FTS): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE name = ?`).get(name) !== undefined;
}
