import type Database from 'better-sqlite3-multiple-ciphers';
import type { GraphBatch, GraphNode } from '../../graph/graph-batch.js';
import { removesNode, type GraphDelta } from '../../graph/graph-delta.js';
import {
  EDGE_KINDS,
  LABEL_NAMES,
  SHARED_LABELS,
  type EdgeKind,
  type Label,
} from '../../graph/schema.js';
import type { HashedBatch, ImportRecord } from '../store.js';
import { fullTextWriter } from './full-text.js';
import { batchLanguage } from '../batch-language.js';
import { stemsWriter, type StemsWriter } from './stemmed-full-text.js';
import { columnsOf, ownedBySource, quote, typesOf } from './sqlite-schema.js';
import type { SqliteVectors } from './sqlite-vectors.js';
import { deltaPatcher, messageCounts, type PatchOutcome } from './sqlite-patch.js';
import { addTokenCounts, tokenCountStatements, tokenCounts } from './sqlite-token-counts.js';
import {
  conversationWordsWriter,
  type ConversationWordsWriter,
  type SegmentTexts,
} from './conversation-words-writer.js';

type Statement = Database.Statement;

/** The SQL that deletes a conversation's edges of one kind (see ownedBySource). */
export function ownedEdges(kind: EdgeKind, verb: 'DELETE' | 'SELECT src, dst'): string {
  const owned = ownedBySource(kind);
  const from = `${verb} FROM ${quote(kind)}`;
  if (owned === 'equal') return `${from} WHERE src = @owner`;
  if (owned === 'prefix') return `${from} WHERE src >= @owner || ':' AND src < @owner || ';'`;
  return `${from} WHERE owner = @owner`;
}

function upsertNodeSql(label: Label): string {
  const columns = ['id', 'owner', ...columnsOf(label)];
  return `INSERT INTO ${quote(label)} (${columns.map(quote).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})
     ON CONFLICT(id) DO UPDATE SET ${columns
       .slice(1)
       .map((c) => `${quote(c)} = excluded.${quote(c)}`)
       .join(', ')}`;
}

/**
 * What writes a conversation's graph into the tables: its nodes, edges, full-text rows,
 * message and token counts and content hash, each conversation replacing its earlier rows whole.
 */
export class SqliteGraphWriter {
  private readonly insertNode = new Map<Label, Statement>();
  private readonly insertEdge = new Map<EdgeKind, Statement>();
  private readonly deleteNodes = new Map<Label, Statement>();
  private readonly deleteEdges = new Map<EdgeKind, Statement>();
  private readonly fullText: ReturnType<typeof fullTextWriter>;
  private readonly stems: StemsWriter;
  private readonly words: ConversationWordsWriter;
  private readonly patcher: ReturnType<typeof deltaPatcher>;
  private readonly tokens: ReturnType<typeof tokenCountStatements>;
  private readonly statements: Record<
    'state' | 'countsDelete' | 'countsInsert' | 'bump' | 'stateDelete' | 'known',
    Statement
  >;

  constructor(
    db: Database.Database,
    private readonly vectors: SqliteVectors,
  ) {
    for (const label of LABEL_NAMES) {
      this.insertNode.set(label, db.prepare(upsertNodeSql(label)));
      this.deleteNodes.set(label, db.prepare(`DELETE FROM ${quote(label)} WHERE owner = ?`));
    }
    for (const kind of EDGE_KINDS) {
      this.insertEdge.set(
        kind,
        db.prepare(`INSERT OR IGNORE INTO ${quote(kind)} (src, dst, owner) VALUES (?, ?, ?)`),
      );
      this.deleteEdges.set(kind, db.prepare(ownedEdges(kind, 'DELETE')));
    }
    this.fullText = fullTextWriter(db);
    this.stems = stemsWriter(db);
    this.words = conversationWordsWriter(db);
    this.statements = {
      state: db.prepare(
        `INSERT INTO conversation_state (id, content_hash, deep) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET content_hash = excluded.content_hash, deep = excluded.deep`,
      ),
      countsDelete: db.prepare(`DELETE FROM message_counts WHERE owner = ?`),
      countsInsert: db.prepare(
        `INSERT INTO message_counts (owner, month, role, model, messages) VALUES (?, ?, ?, ?, ?)`,
      ),
      bump: db.prepare(
        `INSERT INTO meta (key, value) VALUES ('version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ),
      stateDelete: db.prepare(`DELETE FROM conversation_state WHERE id = ?`),
      // Whether a conversation has rows: its state and its Conversation node are written together.
      known: db.prepare(
        `SELECT 1 FROM conversation_state WHERE id = ? UNION ALL SELECT 1 FROM "Conversation" WHERE owner = ? LIMIT 1`,
      ),
    };
    this.tokens = tokenCountStatements(db);
    this.patcher = deltaPatcher(db, {
      insertNode: this.insertNode,
      insertEdge: this.insertEdge,
      rowOf,
      stems: this.stems,
      finish: (owner, hash, deep) => {
        this.statements.state.run(owner, hash, deep ? 1 : 0);
        this.bump();
      },
    });
  }

  private removeOwned(owner: string): void {
    this.fullText.removeOwner(owner);
    this.stems.removeOwner(owner);
    this.vectors.dropOwner(owner);
    for (const label of LABEL_NAMES)
      if (!SHARED_LABELS.has(label)) this.deleteNodes.get(label)?.run(owner);
    for (const kind of EDGE_KINDS) this.deleteEdges.get(kind)?.run({ owner });
  }

  /** Deletes one conversation's rows (inside the caller's transaction). */
  remove(owner: string): void {
    this.words.removeOwner(owner);
    this.removeOwned(owner);
    this.statements.countsDelete.run(owner);
    this.tokens.remove.run(owner);
    this.statements.stateDelete.run(owner);
    this.statements.bump.run(`deleted-${Date.now()}`);
  }

  /**
   * Replaces one conversation's rows. Runs inside the open group's transaction (see
   * SqliteStore.flush): no savepoint per conversation, since FTS5 flushes a segment at every
   * savepoint as it does at every commit.
   */
  write(batch: HashedBatch, hash: string, deep: boolean): void {
    // A new conversation has no rows to delete, and the deletes are not free even then: an
    // INSERT … SELECT or a multi-row DELETE on an FTS5 table opens a statement savepoint, where
    // FTS5 writes its pending terms out as a segment, so every conversation of an import made
    // its own tiny segments to merge (1.9 s of a 14 s import of 4,698 conversations).
    if (this.statements.known.get(batch.owner, batch.owner) !== undefined) {
      // Its words out first, told the texts they were made of (see conversation-words.ts).
      this.words.removeOwner(batch.owner);
      this.removeOwned(batch.owner);
    }
    const language = batchLanguage(batch.nodes);
    // The conversation's number, asked once for all its messages (given at its first one).
    let n: number | bigint | undefined;
    // Its words for the conversation-grain tables, from the texts at hand (not read back).
    const grain = grainTexts();
    for (const node of batch.nodes) {
      const owner = SHARED_LABELS.has(node.label) ? null : batch.owner;
      const info = this.insertNode.get(node.label)?.run(...rowOf(node, owner));
      // The conversation's rows were just deleted, so this was an insert with a fresh rowid.
      if (info) {
        this.fullText.add(node.label, info.lastInsertRowid, node.properties.content);
        if (node.label === 'Message') {
          n ??= this.stems.numberOf(batch.owner);
          // Its number, role and day beside it, from the properties just written.
          // Its pairs of common words, when the conversion worker made them (notePairs).
          const stems = this.stems.add(
            info.lastInsertRowid,
            node.properties.content,
            language,
            { n, facts: node.properties },
            node.pairs,
          );
          grain.message(node, info.lastInsertRowid, stems);
        } else if (node.label === 'Attachment') grain.attachment(node);
      }
    }
    for (const edge of batch.edges) {
      this.insertEdge.get(edge.kind)?.run(edge.from, edge.to, batch.owner);
      if (edge.kind === 'HAS_ATTACHMENT') grain.carries(edge.from, edge.to);
    }
    // The conversation's words as one segment (see conversation-words.ts).
    const { segment, texts } = grain.done();
    this.words.addWhole(batch.owner, segment, texts);
    this.finish(batch, hash, deep);
  }

  /**
   * Writes only what a delta adds or changes (see deltaPatcher); `replace` when the change is
   * not additive and the conversation must be written whole.
   */
  patch(delta: GraphDelta, hash: string, deep: boolean): PatchOutcome {
    // What the append changes of the conversation's words, read before its rows change, made
    // again after (a patch that answers 'replace' has changed nothing: the whole write that
    // follows does it); only the segments it touches and its new messages are read.
    if (removesNode(delta)) return 'replace';
    const plan = this.words.planAppend(delta);
    const outcome = this.patcher(delta, hash, deep);
    if (outcome !== 'replace') this.words.finishAppend(plan);
    return outcome;
  }

  /** A written conversation's message counts, content hash, and the store's version. */
  private finish(batch: GraphBatch, hash: string, deep: boolean): void {
    const { countsDelete, countsInsert, state } = this.statements;
    countsDelete.run(batch.owner);
    for (const [key, messages] of messageCounts(batch.nodes, 1))
      countsInsert.run(batch.owner, ...key.split('\u0000'), messages);
    this.tokens.remove.run(batch.owner);
    addTokenCounts(this.tokens, batch.owner, tokenCounts(batch.nodes, 1));
    state.run(batch.owner, hash, deep ? 1 : 0);
    this.bump();
  }

  private bump(): void {
    this.statements.bump.run(String(Date.now()) + Math.random().toString(36).slice(2, 6));
  }

  /** Records an import (an `Import` node, shared by every conversation it brought). */
  recordImport(record: ImportRecord): void {
    this.insertNode
      .get('Import')
      ?.run(
        record.id,
        null,
        record.sourceFile,
        record.checksum,
        record.importer,
        record.importedAt,
        record.size ?? null,
        record.crc32 ?? null,
        record.redacted === undefined ? null : record.redacted ? 1 : 0,
      );
  }
}

/**
 * A conversation's texts as an import writes them, joined for its conversation-grain documents
 * as conversation-words.ts reads them back from the rows (each message's text, each attachment
 * it carries): the last write of an id wins, as the upsert's, and an edge counts once, as
 * `INSERT OR IGNORE`'s. Undefined texts (read back from the rows after all) where they could
 * differ from the rows: a text that is not a string, an attachment not in the batch.
 */
function grainTexts(): {
  message(node: GraphNode, rowid: number | bigint, stems: string | undefined): void;
  attachment(node: GraphNode): void;
  carries(message: string, attachment: string): void;
  done(): {
    segment: { lo: number; hi: number; messages: number };
    texts: SegmentTexts | undefined;
  };
} {
  const messages = new Map<string, { content: unknown; stems: string | undefined }>();
  const attachments = new Map<string, unknown>();
  const carried = new Map<string, Set<string>>();
  let lo = Number.MAX_SAFE_INTEGER;
  let hi = 0;
  const textOf = (value: unknown): string | undefined | false =>
    typeof value === 'string' ? value : value === undefined || value === null ? undefined : false;
  return {
    message: (node, rowid, stems) => {
      lo = Math.min(lo, Number(rowid));
      hi = Math.max(hi, Number(rowid));
      messages.set(node.id, { content: node.properties.content, stems });
    },
    attachment: (node) => attachments.set(node.id, node.properties.content),
    carries: (message, attachment) => {
      if (!messages.has(message)) return;
      const set = carried.get(message) ?? new Set<string>();
      set.add(attachment);
      carried.set(message, set);
    },
    done: () => {
      const segment = { lo: messages.size > 0 ? lo : 0, hi, messages: messages.size };
      const words: string[] = [];
      const stems: string[] = [];
      let exact = true;
      for (const [id, { content, stems: stemmed }] of messages) {
        const text = textOf(content);
        if (text === false) exact = false;
        else if (text !== undefined) words.push(text);
        if (stemmed !== undefined) stems.push(stemmed);
        for (const attachment of carried.get(id) ?? []) {
          const a = attachments.has(attachment) ? textOf(attachments.get(attachment)) : false;
          if (a === false) exact = false;
          else if (a !== undefined) words.push(a);
        }
      }
      return { segment, texts: exact ? [words.join('\n'), stems.join('\n')] : undefined };
    },
  };
}

function rowOf(node: GraphNode, owner: string | null): unknown[] {
  const types = typesOf(node.label);
  return [
    node.id,
    owner,
    ...columnsOf(node.label).map((column) => {
      const value = node.properties[column];
      if (value === undefined || value === null) return null;
      return types[column] === 'boolean' ? (value ? 1 : 0) : value;
    }),
  ];
}
