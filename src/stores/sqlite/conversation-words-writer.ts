import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import type { GraphEdge } from '../../graph/graph-batch.js';
import type { GraphDelta } from '../../graph/graph-delta.js';
import {
  CONVERSATION_SEGMENTS,
  CONVERSATION_STEMS,
  CONVERSATION_WORDS,
  SEGMENT_BITS,
  SEGMENT_DAYS,
  conversationWordsMissing,
  conversationWordsStatements,
} from './conversation-words.js';
import { holdsText } from '../../model/white-space.js';
import { CONVERSATION_NUMBERS } from './message-conversations.js';
import { STEMS_TABLE } from './stemmed-full-text.js';
import { sqliteRows } from './sqlite-rows.js';

// A segment's texts joined by a line break, a word separator for both tokenizers: its messages'
// texts and those of the attachments they carry, as the per-match count joins them. Read by
// rowid when the segment's rows are dense (an import's conversation, an append), else through
// the owner index (a segment merged across other conversations' appends).
const messagesOf = (dense: boolean): string => (dense ? `"Message" m NOT INDEXED` : `"Message" m`);
const inSegment = `m.owner = @owner AND m.rowid BETWEEN @lo AND @hi`;
const wordsIn = (dense: boolean): string => `SELECT group_concat(content, char(10)) FROM (
    SELECT m.content AS content FROM ${messagesOf(dense)} WHERE ${inSegment}
    UNION ALL
    SELECT a.content FROM ${messagesOf(dense)} CROSS JOIN "HAS_ATTACHMENT" e ON e.src = m.id
      CROSS JOIN "Attachment" a ON a.id = e.dst WHERE ${inSegment})`;
const stemsIn = (dense: boolean): string =>
  `SELECT group_concat(s.content, char(10)) FROM ${STEMS_TABLE} s
   WHERE s.rowid IN (SELECT m.rowid FROM ${messagesOf(dense)} WHERE ${inSegment})`;

/** A segment of a conversation's documents (a row of {@link CONVERSATION_SEGMENTS}). */
interface Segment {
  k: number;
  lo: number;
  hi: number;
  messages: number;
}

const SegmentRow = z.object({
  k: z.number(),
  lo: z.number(),
  hi: z.number(),
  messages: z.number(),
});

/** A segment's first or last day as YYYYMMDD, null when not every message has one. */
type Day = number | null;

/** The texts of a segment's two documents: message_fts's words, then the stems. */
export type SegmentTexts = [words: string, stems: string];

/** What an append will change of a conversation's documents, read before its rows change. */
export interface AppendPlan {
  owner: string;
  /** The segments whose messages the append changes, and the texts they were made of. */
  touched: { segment: Segment; texts: SegmentTexts }[];
  /** The segments holding a message whose time the append changes: their days are read again. */
  retimed: Segment[];
  /** The last message rowid before the append: its new messages come after it. */
  before: number;
  fresh: number;
}

/** Writes a conversation's words (inside the writer's transaction). */
export interface ConversationWordsWriter {
  /** Takes out every document of a conversation (before its rows change or go). */
  removeOwner(owner: string): void;
  /**
   * A conversation just written whole as one segment: its messages' rowids, and its texts when
   * the writer held them (else read from the rows just written).
   */
  addWhole(
    owner: string,
    segment: { lo: number; hi: number; messages: number },
    texts?: SegmentTexts,
  ): void;
  /** Before a live append's rows are written: the documents it will change. */
  planAppend(delta: GraphDelta): AppendPlan;
  /** After them: those documents made again, the new messages' segment added, segments merged. */
  finishAppend(plan: AppendPlan): void;
  /** Characters of text handed to the tables (taken out or put in), for tests and benchmarks. */
  readonly fed: { characters: number };
}

// The Message nodes a delta adds, and the old messages whose words it changes (their text, the
// attachments they carry, or those attachments' text).
function appendShape(delta: GraphDelta): {
  fresh: number;
  touched: Set<string>;
  retimed: Set<string>;
} {
  const old = new Map(delta.left.nodes.map((node) => [node.id, node]));
  const touched = new Set<string>();
  const retimed = new Set<string>();
  let fresh = 0;
  const carried = (edges: readonly GraphEdge[], attachment: string): void => {
    for (const edge of edges)
      if (edge.kind === 'HAS_ATTACHMENT' && edge.to === attachment) touched.add(edge.from);
  };
  for (const node of delta.fresh.nodes) {
    const before = old.get(node.id);
    if (node.label === 'Message' && before === undefined) fresh++;
    // A patch may change an old message's time without its text: its segment's days change.
    if (
      node.label === 'Message' &&
      before !== undefined &&
      before.properties.created_at !== node.properties.created_at
    )
      retimed.add(node.id);
    if (before === undefined || before.properties.content === node.properties.content) continue;
    if (node.label === 'Message') touched.add(node.id);
    if (node.label === 'Attachment') {
      carried(delta.left.edges, node.id);
      carried(delta.fresh.edges, node.id);
    }
  }
  const key = (edge: GraphEdge): string => `${edge.from}\u0000${edge.to}`;
  const attachments = (edges: readonly GraphEdge[]): Set<string> =>
    new Set(edges.filter((edge) => edge.kind === 'HAS_ATTACHMENT').map(key));
  const [left, right] = [attachments(delta.left.edges), attachments(delta.fresh.edges)];
  for (const edge of [...delta.left.edges, ...delta.fresh.edges])
    if (edge.kind === 'HAS_ATTACHMENT' && left.has(key(edge)) !== right.has(key(edge)))
      touched.add(edge.from);
  // A new message's words go into the new segment.
  for (const node of delta.fresh.nodes) if (!old.has(node.id)) touched.delete(node.id);
  return { fresh, touched, retimed };
}

/**
 * Single-row statements only: an INSERT … SELECT on an FTS5 table opens a statement journal,
 * where FTS5 writes its pending terms out as a segment (see message-conversations.ts). A row is
 * taken out by FTS5's 'delete' command with the text it was made of, read from the segment's
 * rows before they change: with `secure-delete` that leaves none of its words in the file (a
 * re-import with --redact must not keep a secret's words), where a `contentless_delete=1` table
 * kept them until a merge.
 */
export function conversationWordsWriter(db: Database.Database): ConversationWordsWriter {
  return new SegmentWriter(db);
}

const joined = (a: string, b: string): string => (a === '' ? b : b === '' ? a : `${a}\n${b}`);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const integer = (value: unknown): number | undefined =>
  typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : undefined;

class SegmentWriter implements ConversationWordsWriter {
  readonly fed = { characters: 0 };
  private readonly numberOf: Database.Statement;
  private readonly read: { words: Database.Statement; stems: Database.Statement }[];
  private readonly tables: { remove: Database.Statement; insert: Database.Statement }[];
  private readonly segments: Record<
    'of' | 'put' | 'drop' | 'dropAll' | 'days' | 'setDays',
    Database.Statement
  >;
  private readonly lastMessage: Database.Statement;
  private readonly messageRowid: Database.Statement;

  constructor(db: Database.Database) {
    this.numberOf = db.prepare(`SELECT n FROM ${CONVERSATION_NUMBERS} WHERE owner = ?`).pluck();
    this.read = [true, false].map((dense) => ({
      words: db.prepare(wordsIn(dense)).pluck(),
      stems: db.prepare(stemsIn(dense)).pluck(),
    }));
    this.tables = [CONVERSATION_WORDS, CONVERSATION_STEMS].map((table) => ({
      remove: db.prepare(`INSERT INTO ${table} (${table}, rowid, content) VALUES ('delete', ?, ?)`),
      insert: db.prepare(`INSERT INTO ${table} (rowid, content) VALUES (?, ?)`),
    }));
    this.segments = {
      of: db.prepare(
        `SELECT k, lo, hi, messages FROM ${CONVERSATION_SEGMENTS} WHERE n = ? ORDER BY k`,
      ),
      put: db.prepare(
        `INSERT OR REPLACE INTO ${CONVERSATION_SEGMENTS} (n, k, lo, hi, messages, first_day, last_day)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      drop: db.prepare(`DELETE FROM ${CONVERSATION_SEGMENTS} WHERE n = ? AND k = ?`),
      dropAll: db.prepare(`DELETE FROM ${CONVERSATION_SEGMENTS} WHERE n = ?`),
      // A segment's first and last day, from its messages' days beside their numbers (given
      // before the words are written: an import's and an append's messages pass the stems'
      // writer first).
      days: db.prepare(SEGMENT_DAYS).raw(),
      setDays: db.prepare(
        `UPDATE ${CONVERSATION_SEGMENTS} SET first_day = ?, last_day = ? WHERE n = ? AND k = ?`,
      ),
    };
    // The last rowid of the table: a new message's rowid is past it.
    this.lastMessage = db.prepare(`SELECT max(rowid) FROM "Message"`).pluck();
    this.messageRowid = db.prepare(`SELECT rowid FROM "Message" WHERE id = ?`).pluck();
  }

  removeOwner(owner: string): void {
    const n = this.number(owner);
    if (n === undefined) return;
    for (const segment of this.segmentsOf(n))
      this.remove(n, segment.k, this.textsOf(owner, segment));
    this.segments.dropAll.run(n);
  }

  addWhole(
    owner: string,
    segment: { lo: number; hi: number; messages: number },
    texts?: SegmentTexts,
  ): void {
    const n = this.number(owner);
    if (n === undefined) return;
    this.put(n, 0, segment);
    this.insert(n, 0, texts ?? this.textsOf(owner, segment));
  }

  planAppend(delta: GraphDelta): AppendPlan {
    const { owner } = delta;
    const { fresh, touched, retimed } = appendShape(delta);
    const plan: AppendPlan = { owner, touched: [], retimed: [], before: this.highest(), fresh };
    const n = this.number(owner);
    if (n === undefined || touched.size + retimed.size === 0) return plan;
    const list = this.segmentsOf(n);
    const segmentsOf = (ids: Set<string>): Segment[] => {
      const hit = new Set<Segment>();
      for (const id of ids) {
        const rowid = integer(this.messageRowid.get(id));
        if (rowid === undefined) continue;
        const segment = list.find((s) => s.lo <= rowid && rowid <= s.hi);
        if (segment) hit.add(segment);
      }
      return [...hit];
    };
    plan.touched = segmentsOf(touched).map((segment) => ({
      segment,
      texts: this.textsOf(owner, segment),
    }));
    plan.retimed = segmentsOf(retimed);
    return plan;
  }

  finishAppend({ owner, touched, retimed, before, fresh }: AppendPlan): void {
    const n = this.number(owner);
    if (n === undefined) return;
    for (const { segment, texts } of touched) {
      this.remove(n, segment.k, texts);
      this.insert(n, segment.k, this.textsOf(owner, segment));
    }
    // Only the segments whose messages were given another time: reading every segment's days
    // at each append cost a growing session its whole length again each time. (Before the new
    // segment: merging it writes the merged segments' days itself.)
    for (const segment of retimed)
      this.segments.setDays.run(...this.daysOf(n, segment), n, segment.k);
    if (fresh > 0) this.addSegment(owner, n, before, fresh);
  }

  // The new messages' segment, then the last segments merged.
  private addSegment(owner: string, n: number, before: number, fresh: number): void {
    // A binary counter's merges keep a conversation's segments under log2 of its messages, + 1:
    // far below the 2^SEGMENT_BITS a conversation's documents can number.
    const k = (this.segmentsOf(n).at(-1)?.k ?? -1) + 1;
    const segment = { lo: before + 1, hi: this.highest(), messages: fresh };
    this.put(n, k, segment);
    const texts = this.textsOf(owner, segment);
    this.insert(n, k, texts);
    this.merge(owner, n, texts);
  }

  // The last two segments merged while the older holds no more messages than the newer; `newest`
  // is the last segment's texts, just read (a merged segment's are the two joined).
  private merge(owner: string, n: number, newest: SegmentTexts): void {
    const list = this.segmentsOf(n);
    let b = newest;
    for (;;) {
      const newer = list.at(-1);
      const older = list.at(-2);
      if (!newer || !older || older.messages > newer.messages) return;
      const a = this.textsOf(owner, older);
      this.remove(n, older.k, a);
      this.remove(n, newer.k, b);
      b = [joined(a[0], b[0]), joined(a[1], b[1])];
      this.insert(n, older.k, b);
      this.segments.drop.run(n, newer.k);
      older.hi = newer.hi;
      older.messages += newer.messages;
      this.put(n, older.k, older);
      list.pop();
    }
  }

  private put(n: number, k: number, segment: Pick<Segment, 'lo' | 'hi' | 'messages'>): void {
    this.segments.put.run(
      n,
      k,
      segment.lo,
      segment.hi,
      segment.messages,
      ...this.daysOf(n, segment),
    );
  }

  private daysOf(n: number, { lo, hi }: Pick<Segment, 'lo' | 'hi'>): [Day, Day] {
    const row: unknown = this.segments.days.get({ n, lo, hi });
    const [first, last] = Array.isArray(row) ? (row as unknown[]) : [];
    return [integer(first) ?? null, integer(last) ?? null];
  }

  private number(owner: string): number | undefined {
    return integer(this.numberOf.get(owner));
  }

  private highest(): number {
    return integer(this.lastMessage.get()) ?? 0;
  }

  private segmentsOf(n: number): Segment[] {
    return sqliteRows(SegmentRow, this.segments.of.all(n), 'conversation segment');
  }

  private textsOf(owner: string, segment: Pick<Segment, 'lo' | 'hi' | 'messages'>): SegmentTexts {
    // Dense when the segment's rowid range holds few rows of other conversations.
    const dense = segment.hi - segment.lo < 4 * segment.messages + 64;
    const statements = this.read[dense ? 0 : 1] ?? this.read[0];
    const at = { owner, lo: segment.lo, hi: segment.hi };
    return [text(statements?.words.get(at)), text(statements?.stems.get(at))];
  }

  // A table has a segment's document when its text holds more than white space. Not "when its
  // text is not empty": the same rows read again or joined can give "" one time and "\n" the
  // next (empty messages joined by line breaks), and FTS5's 'delete' of a row it never had
  // leaves the table's totals wrong, so that a later 'delete' finds it malformed.
  private remove(n: number, k: number, texts: SegmentTexts): void {
    this.tables.forEach((table, i) => {
      const value = texts[i] ?? '';
      this.fed.characters += value.length;
      if (holdsText(value)) table.remove.run(documentOf(n, k), value);
    });
  }

  private insert(n: number, k: number, texts: SegmentTexts): void {
    this.tables.forEach((table, i) => {
      const value = texts[i] ?? '';
      this.fed.characters += value.length;
      if (holdsText(value)) table.insert.run(documentOf(n, k), value);
    });
  }
}

/** The rowid of conversation `n`'s document of segment `k`. */
function documentOf(n: number, k: number): bigint {
  return (BigInt(n) << BigInt(SEGMENT_BITS)) | BigInt(k);
}

/**
 * Makes and fills the tables of a store made before them (or before their segments), in one
 * transaction (a kill part-way leaves the store as it was; run after the messages' numbers and
 * stems are up to date). Returns how many conversations were indexed, or undefined when the
 * store was up to date.
 */
export function upgradeConversationWords(db: Database.Database): number | undefined {
  if (!conversationWordsMissing(db)) return undefined;
  return db.transaction(() => {
    for (const table of [CONVERSATION_WORDS, CONVERSATION_STEMS, CONVERSATION_SEGMENTS])
      db.exec(`DROP TABLE IF EXISTS ${table}`);
    for (const statement of conversationWordsStatements()) db.exec(statement);
    const owners = sqliteRows(
      z.object({ owner: z.string(), lo: z.number(), hi: z.number(), messages: z.number() }),
      db
        .prepare(
          `SELECT owner, min(rowid) AS lo, max(rowid) AS hi, count(*) AS messages FROM "Message"
           WHERE owner IN (SELECT owner FROM ${CONVERSATION_NUMBERS}) GROUP BY owner`,
        )
        .all(),
      'conversation',
    );
    const writer = conversationWordsWriter(db);
    for (const { owner, ...segment } of owners) writer.addWhole(owner, segment);
    return owners.length;
  })();
}
