import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphBatch, GraphNode } from '../graph/graph-batch.js';
import { convertRecord, type RecordTask } from '../pipeline/convert-record.js';
import { tempDir } from '../../test/support/convert-to-temp.js';
import { notePairs, pairsOfText } from './pairs-of-text.js';
import { SqliteStore } from './sqlite/sqlite-store.js';
import { PAIRS_TABLE, messagePairs } from './sqlite/word-pairs.js';

// Issue 46: the conversion worker gives each message its pairs of common words (notePairs), so
// the import's main thread, which runs every SQLite write, does not cut and stem them. What the
// worker gives must be what the writer would have computed, and what it gives is what is written.

const message = (id: string, content: GraphNode['properties'][string]): GraphNode => ({
  label: 'Message',
  id,
  properties: { role: 'user', content, created_at: '2025-01-01T10:00:00Z', position: 0 },
});

const WORDS = ['the', 'and', 'of', 'The', 'AND', 'budget', 'it', 'a', 'sourdough', 'x'];
const PIECES = [
  ' ',
  ', ',
  '. ',
  '\n',
  ' — ',
  '’',
  ' 🤔 ',
  '🎉',
  ' thé ',
  '東京',
  '한국어',
  'ﬁ',
  '\u0000',
];

/** Texts of every kind a message holds: ASCII, punctuation, CJK, emoji, empty, and anything. */
const text = fc.oneof(
  fc.constant(''),
  fc
    .array(fc.oneof(fc.constantFrom(...WORDS), fc.constantFrom(...PIECES)), { maxLength: 40 })
    .map((parts) => parts.join(' ')),
  fc.string({ unit: 'grapheme-ascii', maxLength: 80 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

describe("the worker's pairs of common words", () => {
  it('are what the writer would compute, or left to it for a text only FTS5 cuts', () => {
    const db = new Database(':memory:');
    const writerPairs = messagePairs(db);
    fc.assert(
      fc.property(text, (content) => {
        const batch: GraphBatch = { owner: 'c', nodes: [message('c:0', content)], edges: [] };
        const [node] = notePairs(batch).nodes;
        const local = pairsOfText(content);
        expect(node?.pairs).toBe(local);
        if (node?.pairs !== undefined) expect(node.pairs).toBe(writerPairs(content));
      }),
      { numRuns: 400 },
    );
    db.close();
  });

  it('are noted on messages only, and never for content that is not text', () => {
    const batch: GraphBatch = {
      owner: 'c',
      nodes: [
        { label: 'Conversation', id: 'c', properties: { name: 'the and of the' } },
        message('c:0', null),
        message('c:1', 'because of the way it is'),
      ],
      edges: [],
    };
    expect(notePairs(batch).nodes.map((node) => node.pairs)).toEqual([
      undefined,
      undefined,
      'becaus_of of_the the_wai wai_it it_is',
    ]);
  });

  it('come with the batch a record is converted into for a store', () => {
    const record = {
      uuid: '0b7c6c3e-1111-4222-8333-444455556666',
      name: 'pairs',
      created_at: '2025-03-01T10:00:00Z',
      updated_at: '2025-03-01T10:05:00Z',
      chat_messages: [
        { uuid: 'a1', sender: 'human', created_at: '2025-03-01T10:00:00Z', text: 'and the rest' },
        { uuid: 'a2', sender: 'assistant', created_at: '2025-03-01T10:01:00Z', text: '東京 the' },
      ],
    };
    const task: RecordTask = {
      provider: 'claude',
      variant: 'array',
      record: {
        kind: 'record',
        path: '',
        index: 0,
        offset: 0,
        bytes: Buffer.from(JSON.stringify(record)),
      },
      file: 'conversations.json',
      entryPath: 'conversations.json',
      fallbackTime: undefined,
      assetsKey: '',
      importedAt: '2025-03-02T00:00:00Z',
      checksum: 'sha256:00',
      redact: false,
      graph: { deep: false },
    };
    const messages = (convertRecord(task, undefined).conversations[0]?.batch?.nodes ?? []).filter(
      (node) => node.label === 'Message',
    );
    expect(messages.map((node) => [node.properties.content, node.pairs])).toEqual([
      ['and the rest', 'and_the the_rest'],
      ['東京 the', undefined],
    ]);
  });

  it('are what the store writes when given, and computed by the writer when not', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    const given = { ...message('c:0', 'the cat and the hat'), pairs: 'given_pair given_pair_2' };
    await store.upsert([
      { owner: 'c', nodes: [given, message('c:1', 'because of the rain')], edges: [] },
    ]);
    await store.close();
    const db = new Database(file, { readonly: true });
    db.exec(`CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, ${PAIRS_TABLE}, row)`);
    const terms = db.prepare(`SELECT term FROM temp.v ORDER BY term`).pluck().all();
    db.close();
    expect(terms).toEqual(['becaus_of', 'given_pair', 'given_pair_2', 'of_the', 'the_rain']);
  });
});
