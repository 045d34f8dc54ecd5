// Issue 46 (fifth to eighth passes), issue 43: the count of conversations a keyword search
// reports is exact at every --limit, counted from each conversation's words (with a date bound,
// from their segments' days) or from every match (older stores read before their upgrade), and
// a role or date filter keeps the same matches. Random small stores: the filtered hits against
// the unfiltered ones filtered here, the count against the conversations of the hits.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphBatch, GraphEdge, GraphNode } from '../src/graph/graph-batch.js';
import { dateBound } from '../src/stores/date-bound.js';
import {
  CONVERSATION_SEGMENTS,
  CONVERSATION_STEMS,
  CONVERSATION_WORDS,
  SEGMENT_DAY_COLUMNS,
} from '../src/stores/sqlite/conversation-words.js';
import { MESSAGE_CONVERSATIONS } from '../src/stores/sqlite/message-conversations.js';
import { openReadonly } from '../src/stores/sqlite/open-readonly.js';
import { SEGMENT_DAYS_WHEN } from '../src/stores/sqlite/segment-days.js';
import { searchSqlite } from '../src/stores/sqlite/sqlite-search.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import type { SearchQuery, SearchResult } from '../src/stores/store.js';
import { tempDir } from './support/convert-to-temp.js';
import { searchBatches, stemBatches } from './support/search-fixtures.js';

const WORDS = ['apple', 'apples', 'apricot', 'banana', 'band', 'cherry', 'chart', 'zeppelin'];
const ROLES = ['user', 'assistant', 'tool'];
// Three days, three times each, and a time that is not an ISO date.
const DAYS = ['2024-01-01', '2024-01-02', '2024-02-10'];
const TIMES = [
  ...DAYS.flatMap((day) =>
    ['T00:00:00Z', 'T08:30:00Z', 'T23:59:59.500Z'].map((time) => `${day}${time}`),
  ),
  '2024-1-2 08:00',
];
const BOUNDS = [
  '2024-01-01T00:00:00Z',
  '2024-01-01T08:30:01Z',
  '2024-01-02T00:00:00Z',
  '2024-01-02T08:30:00Z',
  '2024-01-02T08:30:01Z',
  '2024-02-10T23:59:59Z',
  '2024-03-01T00:00:00Z',
];
const QUERIES = [
  'apple',
  'ap*',
  'ba*',
  'apple OR banana',
  'apple banana',
  '"apple banana"',
  'apple -banana',
  'cherry OR zep*',
  // Counted from each conversation's words first, then message by message in its segments
  // (issue 46, seventh pass).
  'ap* -banana',
  'band -apple -cherry',
  '(apple OR cherry) -banana',
  'apple -"banana cherry"',
  'banana -ap*',
];

// Mostly on one day of the conversation's (a segment of its words then lies wholly on one side
// of a bound's day, or on it: issue 46, eighth pass), else at any time.
const message = (day: string): fc.Arbitrary<Drawn['messages'][number]> =>
  fc.record({
    role: fc.constantFrom(...ROLES),
    at: fc.oneof(
      { arbitrary: fc.constantFrom(...TIMES.filter((t) => t.startsWith(day))), weight: 3 },
      { arbitrary: fc.constantFrom(...TIMES), weight: 1 },
    ),
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }),
    attachment: fc.option(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 2 }), {
      nil: undefined,
    }),
  });
const conversation: fc.Arbitrary<Drawn> = fc
  .tuple(fc.constantFrom(...DAYS), fc.constantFrom(...DAYS))
  .chain(([first, later]) =>
    fc.record({
      source: fc.constantFrom('chatgpt', 'claude-ai'),
      messages: fc.array(message(first), { minLength: 1, maxLength: 5 }),
      // Messages a live append adds afterwards, one patch each (segments of the conversation's
      // words, merged as they grow: issue 46, sixth pass), on another day or the same.
      appended: fc.array(message(later), { maxLength: 2 }),
    }),
  );
const query = fc.record({
  text: fc.constantFrom(...QUERIES),
  // One search in four (without, a word's dated count reads the segments' days).
  role: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 3 },
    { arbitrary: fc.constantFrom(...ROLES), weight: 1 },
  ),
  since: fc.option(fc.constantFrom(...BOUNDS), { nil: undefined, freq: 2 }),
  until: fc.option(fc.constantFrom(...BOUNDS), { nil: undefined, freq: 2 }),
  source: fc.option(fc.constantFrom('chatgpt', 'claude-ai'), { nil: undefined, freq: 2 }),
});
interface Drawn {
  source: string;
  messages: { role: string; at: string; words: string[]; attachment: string[] | undefined }[];
  appended: Drawn['messages'];
}
function batches(conversations: Drawn[]): GraphBatch[] {
  return conversations.map(({ source, messages }, c) => {
    const id = `c${c}`;
    const nodes: GraphNode[] = [
      {
        label: 'Conversation',
        id,
        properties: { name: id, title: id, conversation_id: `p-${id}`, source },
      },
    ];
    const edges: GraphEdge[] = [];
    messages.forEach((m, position) => {
      const messageId = `${id}:m${position}`;
      nodes.push({
        label: 'Message',
        id: messageId,
        properties: {
          role: m.role,
          content: m.words.join(' '),
          created_at: m.at,
          conversation_id: `p-${id}`,
          position,
          on_shown_thread: true,
        },
      });
      edges.push({ kind: 'HAS_MESSAGE', from: id, to: messageId });
      if (m.attachment) {
        const attachmentId = `${messageId}:a`;
        nodes.push({
          label: 'Attachment',
          id: attachmentId,
          properties: {
            name: 'notes.txt',
            content: m.attachment.join(' '),
            message_id: messageId,
            conversation_id: `p-${id}`,
            position: 0,
          },
        });
        edges.push({ kind: 'HAS_ATTACHMENT', from: messageId, to: attachmentId });
      }
    });
    return { owner: id, nodes, edges };
  });
}
// The store as the fourth pass left it (no role and day beside the numbers, no words of each
// conversation: counts read every match), or as `statements` leave it.
function oldShape(file: string, name = 'old', statements = OLD_SHAPE): string {
  const old = join(tempDir(), `${name}.sqlite`);
  copyFileSync(file, old);
  const db = new Database(old);
  for (const statement of statements) db.exec(statement);
  db.close();
  return old;
}
const OLD_SHAPE = [
  `CREATE TABLE kept AS SELECT rowid AS r, n FROM ${MESSAGE_CONVERSATIONS}`,
  `DROP TABLE ${MESSAGE_CONVERSATIONS}`,
  `CREATE TABLE ${MESSAGE_CONVERSATIONS} (rowid INTEGER PRIMARY KEY, n INTEGER NOT NULL)`,
  `INSERT INTO ${MESSAGE_CONVERSATIONS} SELECT r, n FROM kept; DROP TABLE kept`,
  `DROP TABLE ${CONVERSATION_WORDS}; DROP TABLE ${CONVERSATION_STEMS}`,
];
/** The store as the seventh pass left it: segments without their days (eighth pass). */
const undated = (file: string): string =>
  oldShape(
    file,
    'undated',
    SEGMENT_DAY_COLUMNS.map((c) => `ALTER TABLE ${CONVERSATION_SEGMENTS} DROP COLUMN ${c}`),
  );

// Every dated word search counted from the segments' days, whatever the store's size.
Object.assign(SEGMENT_DAYS_WHEN, { wholly: 0, straddling: 1e9, range: 1e9 });
const key = (hit: SearchResult['hits'][number]): string =>
  `${hit.messageId}|${hit.attachment?.id ?? ''}`;

describe('the count of conversations holding the words', () => {
  it('equals the conversations of the hits at every limit, in the three store shapes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(conversation, { minLength: 1, maxLength: 6 }),
        fc.array(query, { minLength: 1, maxLength: 6 }),
        async (drawn, queries) => {
          const file = join(tempDir(), 'chatgraph.sqlite');
          const store = SqliteStore.open(file);
          await store.upsert(batches(drawn));
          // Then each conversation grown by its appended messages, one live append at a time.
          for (let step = 1; drawn.some((d) => d.appended.length >= step); step++) {
            const grown = (s: number): GraphBatch[] =>
              batches(
                drawn.map((d) => ({ ...d, messages: [...d.messages, ...d.appended.slice(0, s)] })),
              );
            const [before, after] = [grown(step - 1), grown(step)];
            for (const [c, d] of drawn.entries()) {
              const [previous, next] = [before[c], after[c]];
              if (d.appended.length >= step && previous && next)
                expect(await store.patch(previous, next, false)).toBe('written');
            }
          }
          await store.close();
          const dbs = [file, oldShape(file), undated(file)].map((f) => openReadonly(f, undefined));
          try {
            for (const q of queries) {
              const { role, source } = q;
              // As the search takes them (a stored timestamp).
              const since = q.since === undefined ? undefined : dateBound(q.since, 'since');
              const until = q.until === undefined ? undefined : dateBound(q.until, 'until');
              const all = 1_000;
              // The unfiltered hits, filtered here: what the filters must keep.
              const unfiltered = searchSqlite(dbs[0] as Database.Database, {
                text: q.text,
                limit: all,
              });
              const expected = unfiltered.hits.filter(
                (hit) =>
                  (role === undefined || hit.role === role) &&
                  (since === undefined || hit.createdAt >= since) &&
                  (until === undefined || hit.createdAt < until) &&
                  (source === undefined || hit.source === source),
              );
              const conversationsOf = (hits: SearchResult['hits']): number =>
                new Set(hits.map((hit) => hit.conversationId)).size;
              const holding = conversationsOf(expected);
              for (const db of dbs) {
                // Unfiltered: a word, a prefix or an OR counted from the conversations' words
                // (this version), the others from every match; the same hits in both shapes.
                const plain = (limit: number): SearchResult =>
                  searchSqlite(db, { text: q.text, limit });
                expect(plain(all).hits.map(key).sort()).toEqual(unfiltered.hits.map(key).sort());
                for (let limit = 1; limit <= unfiltered.hits.length + 1; limit++)
                  expect(plain(limit).conversationCount).toBe(conversationsOf(unfiltered.hits));
                const asked: SearchQuery = { text: q.text };
                if (role !== undefined) asked.role = role;
                if (q.since !== undefined) asked.since = q.since;
                if (q.until !== undefined) asked.until = q.until;
                if (source !== undefined) asked.source = source;
                const search = (limit: number): SearchResult =>
                  searchSqlite(db, { ...asked, limit });
                const whole = search(all);
                // In the same order too: a filter that keeps every conversation is dropped,
                // one that keeps some is checked as the numbers kept or those left out.
                expect(whole.hits.map(key)).toEqual(expected.map(key));
                expect(whole.matches).toBe(expected.length);
                for (let limit = 1; limit <= expected.length + 1; limit++)
                  expect(search(limit).conversationCount).toBe(holding);
              }
            }
          } finally {
            for (const db of dbs) db.close();
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  // Issue 46, seventh pass: `a -b` is counted from the conversations' words unless a document
  // of them holds both; each case here is one a wrong shortcut miscounts.
  it('counts the conversations of a -b exactly, from the words or match by match', async () => {
    const m = (words: string): Drawn['messages'][number] => ({
      role: 'user',
      at: '2024-01-01T00:00:00Z',
      words: words.split(' '),
      attachment: undefined,
    });
    const drawn: Drawn[] = [
      // Every apple with a banana: no match.
      { source: 'chatgpt', messages: [m('apple banana'), m('cherry')], appended: [] },
      // An apple without one, a banana elsewhere in the conversation: a match.
      { source: 'chatgpt', messages: [m('apple'), m('banana')], appended: [] },
      // Apple alone: a match.
      { source: 'chatgpt', messages: [m('apple cherry')], appended: [] },
      // A banana appended live (a second segment of the conversation's words): still a match,
      // though no document holds both.
      { source: 'chatgpt', messages: [m('apple')], appended: [m('banana')] },
      // An apple with a banana appended to apple and banana alone: no match.
      { source: 'chatgpt', messages: [m('band')], appended: [m('apple banana')] },
      // "panneaux" is "panneau" to the French stems only: the stems hold it with "maison" here
      // (no match), where the English words hold neither "panneau" nor both.
      {
        source: 'chatgpt',
        messages: [
          m('Nous voulons installer des panneaux solaires sur le toit de la maison cet été'),
        ],
        appended: [],
      },
      // And alone here: a match.
      {
        source: 'chatgpt',
        messages: [
          m('Les panneaux solaires du voisin produisent beaucoup plus que prévu cette année'),
        ],
        appended: [],
      },
    ];
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert(batches(drawn.map((d) => ({ ...d, appended: [] }))));
    const [before, after] = [
      batches(drawn.map((d) => ({ ...d, appended: [] }))),
      batches(drawn.map((d) => ({ ...d, messages: [...d.messages, ...d.appended] }))),
    ];
    for (const [c, d] of drawn.entries()) {
      const [previous, next] = [before[c], after[c]];
      if (d.appended.length > 0 && previous && next)
        expect(await store.patch(previous, next, false)).toBe('written');
    }
    await store.close();
    const db = openReadonly(file, undefined);
    try {
      const count = (text: string): number | undefined =>
        searchSqlite(db, { text, limit: 1 }).conversationCount;
      // c1, c2, c3 (c0's and c4's apples all hold a banana).
      expect(count('apple -banana')).toBe(3);
      expect(count('ap* -banana')).toBe(3);
      expect(count('apple -banana -band')).toBe(3);
      // c0 and c2; c0 (its cherry alone).
      expect(count('cherry -banana')).toBe(2);
      expect(count('cherry -apple')).toBe(1);
      // No document holds both: counted from the words alone (c0 and c2).
      expect(count('cherry -band')).toBe(2);
      // c1 and c3.
      expect(count('banana -apple')).toBe(2);
      // c6 (c5's holds "maison" too), by the French stems alone.
      expect(count('panneau -maison')).toBe(1);
      expect(count('panneau')).toBe(2);
    } finally {
      db.close();
    }
  });

  // Issue 46, sixth pass: a filtered count reads the stemmed table's matches the English one
  // has not (no longer a UNION of both): a message matched by both is still one match.
  it('counts a message matched by both full-text tables once under a filter', () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    return store
      .upsert([...searchBatches(), ...stemBatches()])
      .then(() => store.close())
      .then(() => {
        const db = openReadonly(file, undefined);
        try {
          const filters: Omit<SearchQuery, 'text'>[] = [
            // None: `a -b` counted from the conversations' words and stems (seventh pass).
            {},
            { role: 'user' },
            { role: 'assistant' },
            { since: '2024-05-02' },
            { source: 'claude-ai' },
            { source: 'chatgpt', role: 'user' },
          ];
          let both = 0;
          for (const text of [
            'la',
            'de',
            'panneau',
            'la -maison',
            '"de la"',
            'installer',
            'panneau -la',
            'installer -de',
            'maison -installer',
          ])
            for (const filter of filters) {
              const unfiltered = searchSqlite(db, { text, limit: 1_000 });
              const since = filter.since === undefined ? '' : dateBound(filter.since, 'since');
              const expected = unfiltered.hits.filter(
                (hit) =>
                  (filter.role === undefined || hit.role === filter.role) &&
                  hit.createdAt >= since &&
                  (filter.source === undefined || hit.source === filter.source),
              );
              const found = searchSqlite(db, { text, ...filter, limit: 1_000 });
              expect(found.hits.map(key)).toEqual(expected.map(key));
              expect(found.matches).toBe(expected.length);
              expect(found.conversationCount).toBe(
                new Set(expected.map((hit) => hit.conversationId)).size,
              );
              both += expected.length;
            }
          // The fixture's French and Spanish messages are in both tables ("la", "de").
          const inBoth = db
            .prepare(
              `SELECT count(*) FROM message_stems WHERE message_stems MATCH 'la' AND rowid IN (SELECT rowid FROM message_fts WHERE message_fts MATCH 'la')`,
            )
            .pluck()
            .get();
          expect(inBoth).toBeGreaterThan(0);
          expect(both).toBeGreaterThan(0);
        } finally {
          db.close();
        }
      });
  });
});
