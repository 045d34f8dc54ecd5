import type Database from 'better-sqlite3';
import type { Memory } from '../../model/pam.js';
import { makeSnippet, snippetTerms } from '../../search/snippet.js';
import {
  matchOf,
  memoryNode,
  memoryText,
  type MemoryIndex,
  type MemoryMatch,
} from '../memory-index.js';
import { MATCH_END, MATCH_START } from '../store.js';
import { TOKENIZER } from './full-text.js';
import { toFtsQuery } from './fts-query.js';
import { columnsOf, quote } from './sqlite-schema.js';

/** The words of the memories (a small table, rebuilt whole with the memories). */
const MEMORY_FTS = 'memory_fts';

/** The embedded store's Memory nodes (the "Memory" table) and their word index. */
export class SqliteMemories implements MemoryIndex {
  constructor(private readonly db: Database.Database) {}

  /** Creates the word index (idempotent; the Memory table comes with the graph's schema). */
  static createSchema(db: Database.Database): void {
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS ${MEMORY_FTS} USING fts5(id UNINDEXED, content, tokenize='${TOKENIZER}')`,
    );
  }

  /** Empties the word index (with the node tables, by `clear`). */
  static clear(db: Database.Database): void {
    if (hasTable(db)) db.exec(`DELETE FROM ${MEMORY_FTS}`);
  }

  replace(memories: readonly Memory[]): Promise<void> {
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
    const words = this.db.prepare(`INSERT INTO ${MEMORY_FTS} (id, content) VALUES (?, ?)`);
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
        insert.run(memory.id, ...columnsOf('Memory').map((c) => properties[c] ?? null));
        if (derivedFrom) {
          const edge = derivedFrom.kind === 'message' ? toMessage : toConversation;
          edge.run(memory.id, derivedFrom.id, derivedFrom.owner, derivedFrom.id);
        }
        words.run(memory.id, memoryText(memory));
      }
    })();
    return Promise.resolve();
  }

  search(text: string, limit: number, options: { all?: boolean } = {}): Promise<MemoryMatch[]> {
    const fts = toFtsQuery(text);
    // A store opened read-only before this version has no memory index: no memory matches.
    if (fts === undefined || !hasTable(this.db)) return Promise.resolve([]);
    const rows = this.db
      .prepare(
        `SELECT t.id, t.content AS words, bm25(${MEMORY_FTS}) AS score, m.*
         FROM ${MEMORY_FTS} t JOIN "Memory" m ON m.id = t.id
         WHERE ${MEMORY_FTS} MATCH ? ${options.all ? '' : `AND m.status = 'active'`} ORDER BY score LIMIT ?`,
      )
      .all(fts.match, limit) as ({ id: string; words: string; score: number } & Record<
      string,
      unknown
    >)[];
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

function hasTable(db: Database.Database): boolean {
  return db.prepare(`SELECT 1 FROM sqlite_master WHERE name = ?`).get(MEMORY_FTS) !== undefined;
}
