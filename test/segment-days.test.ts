// Issue 46, eighth pass: a search with a date bound counts its conversations from the first and
// last day of each segment of their words (segment-days.ts), reading match by match only the
// segments that straddle a bound's day. Checked against the unfiltered hits filtered here, on
// conversations lying before, on and after the bounds' days, grown by live appends (a segment
// of their own), with a time that is not an ISO date, attachment text and French stems; then
// a store made before the days: read exactly before its upgrade, and upgraded when opened.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import type { GraphBatch, GraphEdge, GraphNode } from '../src/graph/graph-batch.js';
import { dateBound } from '../src/stores/date-bound.js';
import { CONVERSATION_SEGMENTS } from '../src/stores/sqlite/conversation-words.js';
import { openReadonly } from '../src/stores/sqlite/open-readonly.js';
import { SEGMENT_DAYS_WHEN } from '../src/stores/sqlite/segment-days.js';
import { searchSqlite } from '../src/stores/sqlite/sqlite-search.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import type { SearchQuery, SearchResult } from '../src/stores/store.js';
import { tempDir } from './support/convert-to-temp.js';
import { grainMismatches } from './support/grain-check.js';

/** A message: its time, its words, and the words of an attachment it carries. */
type Said = [at: string, words: string, attached?: string];

interface Drawn {
  source: string;
  messages: Said[];
  /** Added afterwards by live appends, one patch each. */
  appended: Said[][];
}

const day = (d: number, time = '10:00:00Z'): string => `2024-01-0${d}T${time}`;

// Four messages of cherries on the first day: a segment larger than one appended message.
const fourCherries: Said[] = Array.from({ length: 4 }, () => [day(1), 'cherry']);

const CONVERSATIONS: Drawn[] = [
  // Wholly on the first day.
  {
    source: 'chatgpt',
    messages: [
      [day(1), 'apple'],
      [day(1, '23:59:59Z'), 'cherry'],
    ],
    appended: [],
  },
  // Wholly on the second day, the apple early, the banana late.
  {
    source: 'chatgpt',
    messages: [
      [day(2, '00:00:00Z'), 'apple'],
      [day(2, '23:00:00Z'), 'banana'],
    ],
    appended: [],
  },
  // Across all three days: the apple on the first, the banana on the third.
  {
    source: 'claude-ai',
    messages: [
      [day(1), 'apple'],
      [day(2), 'cherry'],
      [day(3), 'banana'],
    ],
    appended: [],
  },
  // Cherries on the first day, an apple appended on the third (a segment of its own: the
  // older holds more messages); in the second, then a banana on the second day (merged).
  {
    source: 'chatgpt',
    messages: fourCherries,
    appended: [[[day(3), 'apple']]],
  },
  {
    source: 'chatgpt',
    messages: fourCherries,
    appended: [[[day(3), 'apple']], [[day(2, '12:00:00Z'), 'banana']]],
  },
  // An apple on the third day, a banana appended on the first.
  { source: 'claude-ai', messages: [[day(3), 'apple']], appended: [[[day(1), 'banana apple']]] },
  // A time that is not an ISO date: no day, so its segment straddles every bound.
  {
    source: 'chatgpt',
    messages: [
      ['2024-1-2 08:00', 'apple'],
      [day(3), 'cherry'],
    ],
    appended: [],
  },
  // The apple in an attachment's text only, on the third day.
  {
    source: 'chatgpt',
    messages: [
      [day(1), 'cherry'],
      [day(3), 'cherry', 'apple notes'],
    ],
    appended: [],
  },
  // French: "panneaux" is "panneau" to the stems only.
  {
    source: 'chatgpt',
    messages: [[day(2, '12:00:00Z'), 'Nous voulons installer des panneaux solaires sur le toit']],
    appended: [[[day(3), 'Les panneaux du voisin produisent beaucoup plus que prévu']]],
  },
];

const BOUNDS = [
  undefined,
  '2024-01-01T00:00:00Z',
  '2024-01-01T10:00:00Z',
  '2024-01-02T00:00:00Z',
  '2024-01-02T00:00:01Z',
  '2024-01-02T12:00:00Z',
  '2024-01-02T23:00:01Z',
  '2024-01-03T00:00:00Z',
  '2024-01-03T10:00:01Z',
  '2024-01-04T00:00:00Z',
];
// Each bound alone, and a few of both.
const PAIRS: [string | undefined, string | undefined][] = [
  ...BOUNDS.map((since): [string | undefined, string | undefined] => [since, undefined]),
  ...BOUNDS.map((until): [string | undefined, string | undefined] => [undefined, until]),
  ...BOUNDS.flatMap((since, i): [string | undefined, string | undefined][] =>
    BOUNDS.slice(i + 1, i + 4).map((until) => [since, until]),
  ),
].filter(([since, until]) => since !== undefined || until !== undefined);
const TEXTS = ['apple', 'ap*', 'apple OR banana', 'banana', 'cherry OR ban*', 'panneau'];

function batch({ source, messages }: Drawn, c: number): GraphBatch {
  const id = `c${c}`;
  const nodes: GraphNode[] = [
    { label: 'Conversation', id, properties: { name: id, title: id, conversation_id: id, source } },
  ];
  const edges: GraphEdge[] = [];
  messages.forEach(([at, words, attached], position) => {
    const messageId = `${id}:m${position}`;
    nodes.push({
      label: 'Message',
      id: messageId,
      properties: {
        role: 'user',
        content: words,
        created_at: at,
        conversation_id: id,
        position,
        on_shown_thread: true,
      },
    });
    edges.push({ kind: 'HAS_MESSAGE', from: id, to: messageId });
    if (attached !== undefined) {
      const attachmentId = `${messageId}:a`;
      nodes.push({
        label: 'Attachment',
        id: attachmentId,
        properties: { name: 'notes.txt', content: attached, message_id: messageId, position: 0 },
      });
      edges.push({ kind: 'HAS_ATTACHMENT', from: messageId, to: attachmentId });
    }
  });
  return { owner: id, nodes, edges };
}

// The store with each conversation written, then grown one live append at a time.
async function grownStore(): Promise<string> {
  const file = join(tempDir(), 'chatgraph.sqlite');
  const store = SqliteStore.open(file);
  await store.upsert(CONVERSATIONS.map(batch));
  for (const [c, drawn] of CONVERSATIONS.entries()) {
    let messages = drawn.messages;
    for (const step of drawn.appended) {
      const next = [...messages, ...step];
      expect(
        await store.patch(
          batch({ ...drawn, messages }, c),
          batch({ ...drawn, messages: next }, c),
          false,
        ),
      ).toBe('written');
      messages = next;
    }
  }
  await store.close();
  return file;
}

// Every dated word search counted from the segments' days, whatever the store's size.
Object.assign(SEGMENT_DAYS_WHEN, { wholly: 0, straddling: 1e9, range: 1e9 });

const key = (hit: SearchResult['hits'][number]): string =>
  `${hit.messageId}|${hit.attachment?.id ?? ''}`;

// Every text under every pair of bounds (and with a source): the hits, the matches and the
// conversations holding them, against the unfiltered hits filtered here.
function expectExact(db: Database.Database): number {
  let checked = 0;
  for (const text of TEXTS) {
    const unfiltered = searchSqlite(db, { text, limit: 1_000 }).hits;
    for (const [since, until] of PAIRS)
      for (const source of [undefined, 'chatgpt']) {
        const asked: SearchQuery = { text, limit: 1_000 };
        if (since !== undefined) asked.since = since;
        if (until !== undefined) asked.until = until;
        if (source !== undefined) asked.source = source;
        const [from, to] = [since && dateBound(since, 'since'), until && dateBound(until, 'until')];
        const expected = unfiltered.filter(
          (hit) =>
            (from === undefined || hit.createdAt >= from) &&
            (to === undefined || hit.createdAt < to) &&
            (source === undefined || hit.source === source),
        );
        const found = searchSqlite(db, asked);
        const what = JSON.stringify(asked);
        expect(found.hits.map(key), what).toEqual(expected.map(key));
        expect(found.matches, what).toBe(expected.length);
        expect(searchSqlite(db, { ...asked, limit: 1 }).conversationCount, what).toBe(
          new Set(expected.map((hit) => hit.conversationId)).size,
        );
        checked += expected.length;
      }
  }
  return checked;
}

describe('the conversations of a search with a date bound, from its segments’ days', () => {
  it('are those of the hits the bounds keep, on, before and after each day', async () => {
    const file = await grownStore();
    expect(grainMismatches(file)).toEqual([]);
    const db = openReadonly(file, undefined);
    try {
      // Some segments lie wholly on one side of a bound, others straddle it.
      const days = db
        .prepare(`SELECT first_day, last_day FROM ${CONVERSATION_SEGMENTS}`)
        .raw()
        .all();
      expect(days).toContainEqual([20240101, 20240101]);
      expect(days).toContainEqual([20240103, 20240103]);
      expect(days).toContainEqual([20240101, 20240103]);
      expect(days).toContainEqual([null, null]);
      expect(expectExact(db)).toBeGreaterThan(100);
    } finally {
      db.close();
    }
  });

  it('reads a store made before the days exactly, and gives it them when opened', async () => {
    const file = await grownStore();
    const old = join(tempDir(), 'old.sqlite');
    copyFileSync(file, old);
    const made = new Database(old);
    made.exec(`ALTER TABLE ${CONVERSATION_SEGMENTS} DROP COLUMN first_day`);
    made.exec(`ALTER TABLE ${CONVERSATION_SEGMENTS} DROP COLUMN last_day`);
    made.close();
    expect(SqliteStore.needsUpgrade(old)).toBe(true);
    const before = openReadonly(old, undefined);
    try {
      expect(expectExact(before)).toBeGreaterThan(100);
    } finally {
      before.close();
    }
    // Opened to be read, an older store is brought up to date first.
    await SqliteStore.open(old, { readonly: true }).close();
    expect(SqliteStore.needsUpgrade(old)).toBe(false);
    expect(grainMismatches(old)).toEqual([]);
    const after = openReadonly(old, undefined);
    try {
      expect(expectExact(after)).toBeGreaterThan(100);
    } finally {
      after.close();
    }
  });

  it('keeps a segment’s days when an append changes an old message’s time alone', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    const drawn: Drawn = {
      source: 'chatgpt',
      messages: [
        [day(1), 'apple'],
        [day(1), 'cherry'],
      ],
      appended: [],
    };
    await store.upsert([batch(drawn, 0)]);
    // The apple moved to the third day, its text the same: no segment's words change.
    const moved: Drawn = {
      ...drawn,
      messages: [
        [day(3), 'apple'],
        [day(1), 'cherry'],
      ],
    };
    expect(await store.patch(batch(drawn, 0), batch(moved, 0), false)).toBe('written');
    await store.close();
    expect(grainMismatches(file)).toEqual([]);
    const db = openReadonly(file, undefined);
    try {
      expect(searchSqlite(db, { text: 'apple', since: '2024-01-02' }).conversationCount).toBe(1);
    } finally {
      db.close();
    }
  });
});
