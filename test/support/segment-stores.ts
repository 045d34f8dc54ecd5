// Stores for the tests of counting a search's conversations from their segments
// (test/exclusion-segments-count.test.ts, test/together-segments-count.test.ts): conversations
// of a few words written in steps, some grown by live appends into segments of their own or
// merged across other conversations' rows.
import { join } from 'node:path';
import type Database from 'better-sqlite3-multiple-ciphers';
import { expect } from 'vitest';
import type { GraphBatch, GraphEdge, GraphNode } from '../../src/graph/graph-batch.js';
import { SqliteStore } from '../../src/stores/sqlite/sqlite-store.js';
import { tempDir } from './convert-to-temp.js';

/** A message's words, and the words of an attachment it carries. */
export type Text = string | [message: string, attachment: string];

/**
 * In an English sentence: the stemmed table (other languages) then holds none of them, so
 * message text alone matches (short texts of a few words are told another language).
 */
export const sentence = (words: string): string =>
  `We wrote about the ${words} in the kitchen and then we went home for the evening`;

/** Conversation `c{c}`, a message a text (with its attachment when given). */
export function batch(c: number, texts: Text[]): GraphBatch {
  const id = `c${c}`;
  const nodes: GraphNode[] = [
    {
      label: 'Conversation',
      id,
      properties: { name: id, title: id, conversation_id: id, source: 'chatgpt' },
    },
  ];
  const edges: GraphEdge[] = [];
  texts.forEach((text, position) => {
    const [words, attached] = typeof text === 'string' ? [text, undefined] : text;
    const messageId = `${id}:m${position}`;
    nodes.push({
      label: 'Message',
      id: messageId,
      properties: {
        role: 'user',
        content: sentence(words),
        created_at: `2024-01-01T10:0${position}:00Z`,
        conversation_id: id,
        position,
        on_shown_thread: true,
      },
    });
    edges.push({ kind: 'HAS_MESSAGE', from: id, to: messageId });
    if (attached === undefined) return;
    nodes.push({
      label: 'Attachment',
      id: `${messageId}:a`,
      properties: {
        name: 'notes.txt',
        content: sentence(attached),
        message_id: messageId,
        position: 0,
      },
    });
    edges.push({ kind: 'HAS_ATTACHMENT', from: messageId, to: `${messageId}:a` });
  });
  return { owner: id, nodes, edges };
}

/**
 * A store written in three steps: `first`, then `second` (their rowids after every one of
 * `first`'s), then the appends, one live patch each in this order (each after every row before
 * it). Returns the store file.
 */
export async function writtenInSteps(
  first: Record<number, Text[]>,
  second: Record<number, Text[]>,
  appends: readonly [c: number, text: string][],
): Promise<string> {
  const file = join(tempDir(), 'chatgraph.sqlite');
  const store = SqliteStore.open(file);
  const texts = new Map<number, Text[]>();
  for (const step of [first, second])
    await store.upsert(
      Object.entries(step).map(([c, list]) => {
        texts.set(Number(c), list);
        return batch(Number(c), list);
      }),
    );
  for (const [c, text] of appends) {
    const before = texts.get(c) ?? [];
    const after = [...before, text];
    expect(await store.patch(batch(c, before), batch(c, after), false)).toBe('written');
    texts.set(c, after);
  }
  await store.close();
  return file;
}

/** The statements a search prepares on `db` from now on. */
export function watched(db: Database.Database): string[] {
  const statements: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = (sql: string) => {
    statements.push(sql);
    return prepare(sql);
  };
  return statements;
}
