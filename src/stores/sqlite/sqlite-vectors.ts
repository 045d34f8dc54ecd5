import { channel } from 'node:diagnostics_channel';
import type Database from 'better-sqlite3-multiple-ciphers';
import { dot } from '../../search/similarity.js';
import { type BinaryIndex, toBinaryCode } from '../vectors/binary-index.js';
import { quantizeVector } from '../vectors/int8-vectors.js';
import { passageSnippet } from '../vector-passage.js';
import { dateBound } from '../date-bound.js';
import type { SearchHit } from '../store.js';
import { addQ8Column, fromBlob, loadBinaryIndex } from './sqlite-vector-rows.js';
import { textColumn, type RowAt } from './sqlite-raw-row.js';
import { sqliteRow, sqliteRows } from './sqlite-rows.js';
import { embeddingTexts } from './sqlite-vector-texts.js';
import {
  AttachmentHitRow,
  ConversationHitRow,
  MessageHitRow,
  PendingRow,
  CANDIDATE_COLUMNS,
  candidateOf,
} from './sqlite-vector-schemas.js';
import { readIndexFile, removeIndexFile, saveIndexFile } from './vector-index-file.js';
import { meanVectors } from './sqlite-mean-vectors.js';
import type {
  ConversationVector,
  EmbeddingText,
  IndexedModel,
  PendingConversation,
  VectorHit,
  VectorIndex,
  VectorQuery,
  VectorUnit,
} from '../vector-index.js';

/**
 * Vectors in the embedded store: a row a chunk (its float32 vector in sqlite-vec's blob
 * layout, the same at one byte a dimension, its sign bits, the filters' values), owned by its
 * conversation and dropped with it. A search scans the sign bits and the int8 vectors in memory
 * (kept until the vectors change) and scores the nearest hundred or so exactly.
 */
export const VECTOR_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS vector_unit (rowid INTEGER PRIMARY KEY, owner TEXT NOT NULL, node_id TEXT NOT NULL, kind TEXT NOT NULL, message_id TEXT, chunk INTEGER NOT NULL, start INTEGER NOT NULL, "end" INTEGER NOT NULL, text_hash TEXT NOT NULL, source TEXT, role TEXT, created_ms REAL, vector BLOB NOT NULL, code BLOB NOT NULL, q8 BLOB)`,
  `CREATE INDEX IF NOT EXISTS vector_unit_owner ON vector_unit (owner)`,
  `CREATE INDEX IF NOT EXISTS vector_unit_node ON vector_unit (node_id)`,
  // The content hash each conversation's vectors were made from.
  `CREATE TABLE IF NOT EXISTS vector_state (owner TEXT PRIMARY KEY, content_hash TEXT NOT NULL) WITHOUT ROWID`,
];

/**
 * How many candidates each pass keeps. The Hamming pass keeps 20,000 (or 1 in 50 of a larger
 * index); re-ranked by the query's values at their signs, 2,000 (or 20 a hit asked for, as
 * chunks of one message compete for places); re-ranked by their int8 vectors, 100 (or 3 a hit)
 * are scored exactly. Measured recall@10 against an exact scan: see bench/recall.mjs and the
 * README.
 */
const MIN_SCAN = 20_000;
const SCAN_PER_UNITS = 50;
const MIN_KEEP = 2000;
const KEEP_PER_HIT = 20;
const MIN_REFINE = 100;
const REFINE_PER_HIT = 3;

function toBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

/**
 * Told each time a process loads the vector index into memory (from its file or its rows), so a
 * check can see which commands pay for it: a search by words must not.
 */
export const VECTOR_INDEX_LOAD_CHANNEL = 'chatgraph:vector-index-load';
const indexLoads = channel(VECTOR_INDEX_LOAD_CHANNEL);

/** The embedded store's {@link VectorIndex}. */
export class SqliteVectors implements VectorIndex {
  private index: { generation: string; index: BinaryIndex } | undefined;
  // A search asks for the model (and its count) more than once: counted once per generation.
  private counted: { generation: string; count: number } | undefined;

  constructor(
    private readonly db: Database.Database,
    /** Where the in-memory index is saved for the next process (none: not saved). */
    private readonly savedIndex?: string,
  ) {}

  /** Creates the tables (a store opened for writing). */
  static createSchema(db: Database.Database): void {
    for (const statement of VECTOR_SCHEMA) db.exec(statement);
    addQ8Column(db);
  }

  private meta(key: string): string | undefined {
    const value: unknown = this.db.prepare(`SELECT value FROM meta WHERE key = ?`).pluck().get(key);
    return typeof value === 'string' ? value : undefined;
  }

  private setMeta(key: string, value: string): void {
    this.db
      .prepare(
        `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      )
      .run(key, value);
  }

  private hasTables(): boolean {
    return (
      this.db
        .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'vector_unit'`)
        .get() !== undefined
    );
  }

  /** Marks the vectors changed, so a search rebuilds its in-memory codes. */
  private touch(): void {
    this.setMeta('vector_generation', `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`);
    const file = this.indexFile();
    if (file !== undefined) removeIndexFile(file);
  }

  /**
   * Where the in-memory index is saved for the next process: where its opener said (never for
   * an encrypted folder's store: the codes would be a readable digest of the chats beside it),
   * and none for a store in memory.
   */
  private indexFile(): string | undefined {
    return this.db.memory ? undefined : this.savedIndex;
  }

  model(): Promise<IndexedModel | undefined> {
    const id = this.meta('vector_model');
    const dimensions = Number(this.meta('vector_dimensions'));
    if (id === undefined || !this.hasTables()) return Promise.resolve(undefined);
    const generation = this.meta('vector_generation') ?? '';
    if (this.counted?.generation !== generation)
      this.counted = {
        generation,
        count: Number(this.db.prepare(`SELECT count(*) FROM vector_unit`).pluck().get()),
      };
    return Promise.resolve({ id, dimensions, count: this.counted.count });
  }

  reset(model: { id: string; dimensions: number }): Promise<void> {
    this.db.transaction(() => {
      this.db.exec(`DELETE FROM vector_unit; DELETE FROM vector_state`);
      this.setMeta('vector_model', model.id);
      this.setMeta('vector_dimensions', String(model.dimensions));
      this.touch();
    })();
    return Promise.resolve();
  }

  /** Drops one conversation's vectors (inside the writer's transaction). */
  dropOwner(owner: string): void {
    if (!this.hasTables()) return;
    const removed = this.db.prepare(`DELETE FROM vector_unit WHERE owner = ?`).run(owner);
    this.db.prepare(`DELETE FROM vector_state WHERE owner = ?`).run(owner);
    if (removed.changes > 0) this.touch();
  }

  /** Drops every conversation's vectors, keeping the model (for reindex). */
  dropAll(): void {
    if (!this.hasTables()) return;
    this.db.exec(`DELETE FROM vector_unit; DELETE FROM vector_state`);
    this.touch();
  }

  pending(): Promise<PendingConversation[]> {
    const rows = this.db
      .prepare(
        `SELECT s.id AS owner, s.content_hash AS hash, v.content_hash AS embedded FROM conversation_state s
         JOIN "Conversation" c ON c.id = s.id
         LEFT JOIN vector_state v ON v.owner = s.id
         WHERE v.content_hash IS NULL OR v.content_hash <> s.content_hash
         ORDER BY c.created_at DESC`,
      )
      .all();
    return Promise.resolve(sqliteRows(PendingRow, rows, 'pending conversation'));
  }

  texts(owner: string): Promise<EmbeddingText[]> {
    return Promise.resolve(embeddingTexts(this.db, owner));
  }

  write(owner: string, hash: string, units: readonly VectorUnit[]): Promise<void> {
    const insert = this.db.prepare(
      `INSERT INTO vector_unit (owner, node_id, kind, message_id, chunk, start, "end", text_hash, source, role, created_ms, vector, code, q8)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.db.transaction(() => {
      this.db.prepare(`DELETE FROM vector_unit WHERE owner = ?`).run(owner);
      for (const u of units) {
        const time = u.createdAt === null ? NaN : Date.parse(u.createdAt);
        const code = toBinaryCode(u.vector);
        insert.run(
          owner,
          u.nodeId,
          u.kind,
          u.messageId,
          u.chunk,
          u.start,
          u.end,
          u.textHash,
          u.source,
          u.role,
          Number.isNaN(time) ? null : time,
          toBlob(u.vector),
          Buffer.from(code.buffer),
          quantizeVector(u.vector),
        );
      }
      this.db
        .prepare(
          `INSERT INTO vector_state (owner, content_hash) VALUES (?, ?) ON CONFLICT(owner) DO UPDATE SET content_hash = excluded.content_hash`,
        )
        .run(owner, hash);
      this.touch();
    })();
    return Promise.resolve();
  }

  /** The codes and int8 vectors of every unit, read again only when the vectors changed. */
  private binaryIndex(dimensions: number): BinaryIndex {
    const generation = this.meta('vector_generation') ?? '';
    if (this.index?.generation === generation) return this.index.index;
    const file = this.indexFile();
    indexLoads.publish({ store: this.db.name });
    let index = file === undefined ? undefined : readIndexFile(file, generation, dimensions);
    if (!index) {
      index = loadBinaryIndex(this.db, dimensions);
      if (file !== undefined) saveIndexFile(file, generation, index);
    }
    this.index = { generation, index };
    return index;
  }

  async search(query: VectorQuery): Promise<VectorHit[]> {
    const model = await this.model();
    if (!model || model.count === 0) return [];
    const index = this.binaryIndex(model.dimensions);
    const wanted = (query.offset ?? 0) + query.limit;
    const filter = {
      source: query.source === undefined ? undefined : index.lookup(query.source),
      role: query.role === undefined ? undefined : index.lookup(query.role),
      since: query.since === undefined ? undefined : Date.parse(dateBound(query.since, 'since')),
      until: query.until === undefined ? undefined : Date.parse(dateBound(query.until, 'until')),
    };
    const keep = Math.max(MIN_KEEP, wanted * KEEP_PER_HIT);
    const refine = Math.max(MIN_REFINE, wanted * REFINE_PER_HIT);
    const scan = Math.max(MIN_SCAN, keep * 10, Math.ceil(index.length / SCAN_PER_UNITS));
    const candidates = index.shortlist(query.vector, { scan, keep, refine }, filter);
    const best = new Map<string, VectorHit>();
    const read = this.db
      .prepare(
        `SELECT ${CANDIDATE_COLUMNS} FROM vector_unit WHERE rowid IN (SELECT value FROM json_each(?))`,
      )
      .raw();
    const at: RowAt = { what: 'vector', index: 0 };
    for (let i = 0; i < candidates.length; i += 500) {
      for (const row of read.iterate(JSON.stringify(candidates.slice(i, i + 500)))) {
        const unit = candidateOf(row, at);
        at.index++;
        if (unit.nodeId === query.exclude) continue;
        const vector = fromBlob(unit.vector);
        const similarity = dot(query.vector, vector);
        const seen = best.get(unit.nodeId);
        if (seen && seen.similarity >= similarity) continue;
        best.set(unit.nodeId, {
          nodeId: unit.nodeId,
          kind: unit.kind,
          messageId: unit.messageId,
          owner: unit.owner,
          similarity,
          start: unit.start,
          end: unit.end,
          ...(query.withVectors ? { vector } : {}),
        });
      }
    }
    return [...best.values()]
      .sort((a, b) => b.similarity - a.similarity)
      .slice(query.offset ?? 0, wanted);
  }

  textHashes(): Promise<Set<string>> {
    if (!this.hasTables()) return Promise.resolve(new Set());
    // One a unit, up to a million: narrowed by hand (see sqlite-raw-row.ts).
    const hashes = new Set<string>();
    const at: RowAt = { what: 'text hash', index: 0 };
    for (const hash of this.db
      .prepare(`SELECT DISTINCT text_hash FROM vector_unit`)
      .pluck()
      .iterate()) {
      hashes.add(textColumn(hash, 'text_hash', at));
      at.index++;
    }
    return Promise.resolve(hashes);
  }

  conversationVectors(limit: number): Promise<ConversationVector[]> {
    return Promise.resolve(this.hasTables() ? meanVectors(this.db, limit) : []);
  }

  vectorOf(nodeId: string): Promise<Float32Array | undefined> {
    if (!this.hasTables()) return Promise.resolve(undefined);
    const blob: unknown = this.db
      .prepare(`SELECT vector FROM vector_unit WHERE node_id = ? ORDER BY chunk LIMIT 1`)
      .pluck()
      .get(nodeId);
    return Promise.resolve(Buffer.isBuffer(blob) ? fromBlob(blob) : undefined);
  }

  describe(hits: readonly VectorHit[]): Promise<SearchHit[]> {
    const conversation = this.db.prepare(
      `SELECT id, conversation_id AS platformId, name, source FROM "Conversation" WHERE id = ?`,
    );
    const message = this.db.prepare(
      `SELECT id, role, created_at AS createdAt, content FROM "Message" WHERE id = ?`,
    );
    const attachment = this.db.prepare(`SELECT name, content FROM "Attachment" WHERE id = ?`);
    const out: SearchHit[] = [];
    for (const hit of hits) {
      const c = sqliteRow(ConversationHitRow, conversation.get(hit.owner), 'conversation');
      if (!c) continue;
      const m =
        hit.messageId === null
          ? undefined
          : sqliteRow(MessageHitRow, message.get(hit.messageId), 'message');
      let text = m?.content ?? '';
      let attached: { id: string; name: string | null } | undefined;
      if (hit.kind === 'attachment') {
        const a = sqliteRow(AttachmentHitRow, attachment.get(hit.nodeId), 'attachment');
        text = a?.content ?? '';
        attached = { id: hit.nodeId, name: a?.name ?? null };
      } else if (hit.kind === 'title') text = c.name;
      out.push({
        conversationId: c.id,
        platformConversationId: c.platformId,
        title: c.name,
        source: c.source,
        messageId: m?.id ?? '',
        role: m?.role ?? '',
        createdAt: m?.createdAt ?? '',
        snippet: passageSnippet(text, hit),
        score: hit.similarity,
        kind: hit.kind,
        ...(attached ? { attachment: attached } : {}),
      });
    }
    return Promise.resolve(out);
  }
}
