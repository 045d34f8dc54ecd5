import Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toBinaryCode } from '../vectors/binary-index.js';
import { quantizeVector } from '../vectors/int8-vectors.js';
import { meanVectors } from './sqlite-mean-vectors.js';
import { blobColumn, nullableTextColumn, numberColumn, rawRow } from './sqlite-raw-row.js';
import { loadBinaryIndex } from './sqlite-vector-rows.js';
import { candidateOf } from './sqlite-vector-schemas.js';
import { SqliteVectors, VECTOR_SCHEMA } from './sqlite-vectors.js';

// The vector rows are narrowed by hand (a million of them are read at once): a row another tool
// wrote wrong is one error naming the rows, the row and the column, as a zod-parsed row's is.

const vector = new Float32Array([0.6, -0.8, 0, 0]);
const blob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

function store(): Database.Database {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
  db.exec(`CREATE TABLE "Conversation" (id TEXT, name TEXT, source TEXT, created_at TEXT)`);
  for (const statement of VECTOR_SCHEMA) db.exec(statement);
  db.prepare(`INSERT INTO meta VALUES ('vector_dimensions', '4')`).run();
  return db;
}

function addUnit(db: Database.Database, owner: unknown, q8: unknown, textHash: unknown): void {
  db.prepare(
    `INSERT INTO vector_unit (owner, node_id, kind, message_id, chunk, start, "end", text_hash, source, role, created_ms, vector, code, q8)
     VALUES (?, 'n', 'message', 'n', 0, 0, 1, ?, 'chatgpt', 'user', 1, ?, ?, ?)`,
  ).run(owner, textHash, blob(vector), Buffer.from(toBinaryCode(vector).buffer), q8);
}

describe('the vector rows, narrowed by hand', () => {
  let db: Database.Database;
  beforeEach(() => {
    db = store();
    db.exec(`INSERT INTO "Conversation" VALUES ('c1', 'One', 'chatgpt', '2026-01-01')`);
    db.exec(`INSERT INTO vector_state VALUES ('c1', 'h')`);
    addUnit(db, 'c1', quantizeVector(vector), 'hash-1');
  });
  afterEach(() => {
    db.close();
  });

  it('are read when they fit', async () => {
    expect(loadBinaryIndex(db, 4).length).toBe(1);
    const [mean] = meanVectors(db, 10);
    expect(mean?.owner).toBe('c1');
    expect(mean?.vector[1]).toBeCloseTo(-0.8, 1);
    expect(await new SqliteVectors(db).textHashes()).toEqual(new Set(['hash-1']));
  });

  it('name the row and the column of a unit that does not fit', () => {
    addUnit(db, 'c1', 'not a blob', Buffer.from('a blob'));
    expect(() => loadBinaryIndex(db, 4)).toThrow(
      'The SQLite index gave a vector row that chatgraph cannot read (row 1, q8: Expected blob, received string); was it written by another tool?',
    );
    expect(() => meanVectors(db, 10)).toThrow('(row 1, q8: Expected blob, received string)');
    // Thrown as the store's other reads throw: before the promise is made.
    expect(() => new SqliteVectors(db).textHashes()).toThrow(
      'The SQLite index gave a text hash row that chatgraph cannot read (row 1, text_hash: Expected string, received blob)',
    );
  });

  it('name a unit whose owner is not text', () => {
    addUnit(db, Buffer.from('c1'), quantizeVector(vector), 'hash-2');
    expect(() => meanVectors(db, 10)).toThrow('(row 1, owner: Expected string, received blob)');
  });
});

describe('a raw row column', () => {
  const at = { what: 'vector', index: 3 };
  it('is given back when it fits', () => {
    expect(rawRow([1, 2], 2, at)).toEqual([1, 2]);
    expect(numberColumn(7, 'rowid', at)).toBe(7);
    expect(nullableTextColumn(null, 'role', at)).toBeNull();
    expect(blobColumn(Buffer.from([1]), 'code', at)).toEqual(Buffer.from([1]));
  });
  it('is an error naming the row and the column when it does not', () => {
    expect(() => rawRow([1], 2, at)).toThrow('(row 3, row: Expected 2 columns, received object)');
    expect(() => numberColumn('7', 'rowid', at)).toThrow('rowid: Expected number, received string');
    expect(() => blobColumn(null, 'code', at)).toThrow('code: Expected blob, received null');
  });
});

describe("a search's candidate", () => {
  const at = { what: 'vector', index: 0 };
  const row = ['c1', 'n1', 'message', null, 0, 5, Buffer.alloc(16)];
  it('is read when it fits', () => {
    expect(candidateOf(row, at)).toMatchObject({ nodeId: 'n1', kind: 'message', messageId: null });
  });
  it('is an error naming the column when it does not', () => {
    expect(() => candidateOf(['c1', 'n1', 'chunk', null, 0, 5, Buffer.alloc(16)], at)).toThrow(
      'kind: Expected message, attachment or title, received string',
    );
    expect(() => candidateOf(['c1', 'n1', 'title', null, '0', 5, Buffer.alloc(16)], at)).toThrow(
      'start: Expected number, received string',
    );
  });
});
