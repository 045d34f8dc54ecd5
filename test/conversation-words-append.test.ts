// Issue 46, sixth pass: a live append keeps each conversation's words (conversation-words.ts)
// without reading and tokenizing the whole conversation again. Counted, not timed: the text
// handed to the two conversation-grain tables over many one-message appends to a long
// conversation (the whole conversation twice an append before: taken out, put back).
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { GraphBatch, GraphEdge, GraphNode } from '../src/graph/graph-batch.js';
import {
  CONVERSATION_SEGMENTS,
  CONVERSATION_STEMS,
  CONVERSATION_WORDS,
} from '../src/stores/sqlite/conversation-words.js';
import { openReadonly } from '../src/stores/sqlite/open-readonly.js';
import { searchSqlite } from '../src/stores/sqlite/sqlite-search.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { grainMismatches } from './support/grain-check.js';
import { tempDir } from './support/convert-to-temp.js';

const WORDS = ['sourdough', 'starter', 'kernel', 'planner', 'zeppelin', 'cherry', 'banana'];

// A conversation of `length` messages; every tenth carries an attachment.
function conversation(
  length: number,
  text: (i: number) => string = (i) =>
    `message ${i} ${WORDS[i % WORDS.length] ?? ''} word${i} and some more text`,
): GraphBatch {
  const id = 'c1';
  const nodes: GraphNode[] = [
    {
      label: 'Conversation',
      id,
      properties: { name: id, title: id, conversation_id: 'p-c1', source: 'chatgpt' },
    },
  ];
  const edges: GraphEdge[] = [];
  for (let i = 0; i < length; i++) {
    const messageId = `${id}:m${i}`;
    const content = text(i);
    nodes.push({
      label: 'Message',
      id: messageId,
      properties: {
        role: i % 2 === 0 ? 'user' : 'assistant',
        content,
        created_at: '2026-01-01T10:00:00Z',
        conversation_id: 'p-c1',
        position: i,
        on_shown_thread: true,
      },
    });
    edges.push({ kind: 'HAS_MESSAGE', from: id, to: messageId });
    if (i % 10 === 0) {
      const attachmentId = `${messageId}:a`;
      nodes.push({
        label: 'Attachment',
        id: attachmentId,
        properties: {
          name: 'notes.txt',
          content: `attached${i} notes`,
          message_id: messageId,
          conversation_id: 'p-c1',
          position: 0,
        },
      });
      edges.push({ kind: 'HAS_ATTACHMENT', from: messageId, to: attachmentId });
    }
  }
  return { owner: id, nodes, edges };
}

// The characters of text handed to the conversation-grain tables' statements while `run` runs,
// and how many times a conversation's texts were read back from its rows for them.
async function grainText(run: () => Promise<void>): Promise<{ characters: number; reads: number }> {
  const probe = new Database(':memory:');
  const statement = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<
    'run' | 'get',
    (...args: unknown[]) => unknown
  >;
  probe.close();
  const fed = { characters: 0, reads: 0 };
  const { run: write, get: read } = statement;
  const spies = [
    vi.spyOn(statement, 'run').mockImplementation(function (
      this: { source: string },
      ...args: unknown[]
    ) {
      if (this.source.includes(CONVERSATION_WORDS) || this.source.includes(CONVERSATION_STEMS))
        for (const arg of args) if (typeof arg === 'string') fed.characters += arg.length;
      return write.apply(this, args);
    }),
    vi.spyOn(statement, 'get').mockImplementation(function (
      this: { source: string },
      ...args: unknown[]
    ) {
      if (this.source.includes('group_concat')) fed.reads++;
      return read.apply(this, args);
    }),
  ];
  try {
    await run();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return fed;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a live append to a long conversation and the conversation's words", () => {
  it('hands the grain tables the appended text, not the whole conversation again, and an import reads none back', async () => {
    const start = 300;
    const appends = 40;
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    // What one whole write of the starting conversation hands the tables.
    const imported = await grainText(async () => {
      await store.upsert([conversation(start)]);
    });
    const whole = imported.characters;
    expect(whole).toBeGreaterThan(0);
    // An import writes a conversation's words from the texts it holds, reading none back.
    expect(imported.reads).toBe(0);
    const { characters: appended } = await grainText(async () => {
      for (let n = start + 1; n <= start + appends; n++)
        expect(await store.patch(conversation(n - 1), conversation(n), false)).toBe('written');
    });
    await store.close();
    // Before: each append took the whole conversation out and put it back (2 × whole and more,
    // over 80 × whole over these appends); now the new messages and the merges of their
    // segments (each appended message a few times, a binary counter's merges).
    expect(appended).toBeLessThan(4 * whole);
    // Still exact: every word's conversations as its matches', and a count at every limit.
    expect(grainMismatches(file)).toEqual([]);
    const db = openReadonly(file, undefined);
    try {
      for (const text of ['zeppelin', `word${start + appends - 1}`, 'attached310', 'word5*']) {
        const all = searchSqlite(db, { text, limit: 1_000 });
        expect(all.hits.length).toBeGreaterThan(0);
        expect(searchSqlite(db, { text, limit: 1 }).conversationCount).toBe(1);
      }
    } finally {
      db.close();
    }
  });

  it('upgrades a store of the previous shape (one document a conversation) once', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert([conversation(30)]);
    await store.close();
    // As the version before this wrote them: each conversation's texts one document, its
    // rowid the conversation's number, and no segments.
    const old = new Database(file);
    old.exec(`DROP TABLE ${CONVERSATION_SEGMENTS}`);
    for (const table of [CONVERSATION_WORDS, CONVERSATION_STEMS])
      old.exec(`INSERT INTO ${table} (${table}) VALUES ('delete-all')`);
    old.exec(`INSERT INTO ${CONVERSATION_WORDS} (rowid, content)
      SELECT k.n, (SELECT group_concat(m.content, char(10)) FROM "Message" m WHERE m.owner = k.owner)
      FROM conversation_number k`);
    old.exec(`INSERT INTO ${CONVERSATION_STEMS} (rowid, content)
      SELECT k.n, (SELECT group_concat(s.content, char(10)) FROM message_stems s
        WHERE s.rowid IN (SELECT rowid FROM "Message" m WHERE m.owner = k.owner))
      FROM conversation_number k`);
    old.close();
    expect(SqliteStore.needsUpgrade(file)).toBe(true);
    const upgraded = SqliteStore.open(file);
    expect(await upgraded.patch(conversation(30), conversation(31), false)).toBe('written');
    await upgraded.close();
    expect(SqliteStore.needsUpgrade(file)).toBe(false);
    expect(grainMismatches(file)).toEqual([]);
    const db = openReadonly(file, undefined);
    try {
      for (const text of ['zeppelin', 'word30', 'word3*'])
        expect(searchSqlite(db, { text, limit: 1 }).conversationCount).toBe(1);
    } finally {
      db.close();
    }
  });

  // CI caught it (live-store-writer's property test): segments of messages with no words were
  // put in as no document, then merged and read back as "\n" (empty texts joined) and taken
  // out of a table that never had them; SQLite then called the table malformed at the next
  // 'delete' and the append failed.
  it('grows a conversation of messages with no words, one at a time, and writes it whole again', async () => {
    const wordless = ['', '', ' ', '', '\n', '...', '', '', '', 'zeppelin', '', '', '', ''];
    const text = (i: number): string => wordless[i % wordless.length] ?? '';
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert([conversation(1, text)]);
    for (let n = 2; n <= 3 * wordless.length; n++)
      expect(await store.patch(conversation(n - 1, text), conversation(n, text), false)).toBe(
        'written',
      );
    // Written whole (one message more, so not passed over as unchanged): every segment's
    // documents taken out with the texts they were made of.
    await store.upsert([conversation(3 * wordless.length + 1, text)]);
    await store.close();
    const db = new Database(file);
    try {
      // One segment left: the appends' segments were taken out by the whole write.
      expect(db.prepare(`SELECT count(*) FROM ${CONVERSATION_SEGMENTS}`).pluck().get()).toBe(1);
      for (const table of [CONVERSATION_WORDS, CONVERSATION_STEMS])
        expect(() =>
          db.exec(`INSERT INTO ${table} (${table}, rank) VALUES ('integrity-check', 1)`),
        ).not.toThrow();
    } finally {
      db.close();
    }
    expect(grainMismatches(file)).toEqual([]);
    const read = openReadonly(file, undefined);
    try {
      expect(searchSqlite(read, { text: 'zeppelin', limit: 1 }).conversationCount).toBe(1);
    } finally {
      read.close();
    }
  });
});
