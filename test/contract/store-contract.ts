import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/model/pam.js';
import type { GraphBatch } from '../../src/graph/graph-batch.js';
import {
  MATCH_END,
  MATCH_START,
  QueryError,
  type ConversationFilter,
  type SearchQuery,
  type Store,
} from '../../src/stores/store.js';
import { batchesOf, knownConversations } from '../support/graph-fixtures.js';
import { longTokenBatch, searchBatches } from '../support/search-fixtures.js';
import { SNIPPET_MAX_CHARS } from '../../src/search/snippet.js';
import { join } from 'node:path';
import { convertToTemp } from '../support/convert-to-temp.js';
import { ROOT } from '../support/shared.js';

/** The one-line errors a search may give for what a person typed. */
const SEARCH_ERRORS =
  /^(give at least one word to search for|nothing to search for: .+|too many .+|too broad: .+)$/;
import { PASTED_NOTES, PASTED_UNNAMED, pastedBatch } from '../support/attachment-fixtures.js';

const SEED_PLATFORM = `MATCH (c:Conversation)
WHERE c.source = 'claude-ai'
RETURN c.name, c.message_count, c.created_at
ORDER BY c.created_at DESC`;
const SEED_THREAD = `MATCH path = (first:Message)-[:NEXT*]->(last:Message)
WHERE first.conversation_id = $conv_id
  AND NOT ()-[:NEXT]->(first)
RETURN [n IN nodes(path) | {role: n.role, content: left(n.content, 200)}] AS thread`;
const SEED_COUNT = `MATCH (c:Conversation)
RETURN c.source, count(c) AS conversations, sum(c.message_count) AS total_messages`;
const SEED_SEARCH = `MATCH (d:Document)
WHERE d.template_id = 'chat-import'
  AND d.content CONTAINS $search_term
RETURN d.title, d.source, d.created_at
ORDER BY d.created_at DESC`;

/** The seed's four example queries, as written. */
export const SEED_QUERIES = { SEED_PLATFORM, SEED_THREAD, SEED_COUNT, SEED_SEARCH };

// Stores keep no nulls (Neo4j cannot); node and edge order is the store's. The Import node is
// the store's own (recordImport), not the batch's: Neo4j makes it for the IMPORTED edge and
// gives it back as a node the conversation touches.
function nodes(batch: GraphBatch | undefined): unknown[] {
  return (batch?.nodes ?? [])
    .filter((n) => n.label !== 'Import')
    .map((n) => ({
      ...n,
      properties: Object.fromEntries(Object.entries(n.properties).filter(([, v]) => v !== null)),
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

function edges(batch: GraphBatch | undefined): string[] {
  return (batch?.edges ?? []).map((e) => `${e.kind} ${e.from} ${e.to}`).sort();
}

/** A subgraph as comparable whatever order the store gives it in. */
function comparable(batch: GraphBatch | undefined): unknown {
  return { owner: batch?.owner, nodes: nodes(batch), edges: edges(batch) };
}

/** The shared suite every Store implementation passes. */
export function storeContract(name: string, open: () => Promise<Store>): void {
  describe(`Store contract: ${name}`, () => {
    let store: Store;
    let conversations: Conversation[];

    beforeEach(async () => {
      store = await open();
      await store.setDeep(true);
      conversations = await knownConversations();
      await store.upsert(batchesOf(conversations));
    });
    afterEach(async () => {
      await store.close();
    });

    it('runs the seed query for one platform', async () => {
      expect(await store.cypher(SEED_PLATFORM)).toEqual([
        {
          'c.name': 'Claude on bread',
          'c.message_count': 2,
          'c.created_at': '2025-01-01T10:00:00.000000Z',
        },
      ]);
    });

    it('runs the seed thread query: one row per prefix of the shown thread', async () => {
      const rows = await store.cypher(SEED_THREAD, { conv_id: 'gpt-a' });
      expect(rows).toEqual([
        {
          thread: [
            { role: 'user', content: 'hello' },
            { role: 'assistant', content: 'second answer' },
          ],
        },
      ]);
      const claude = await store.cypher(SEED_THREAD, { conv_id: 'cl-1' });
      expect(claude.map((r) => (r.thread as unknown[]).length)).toEqual([2]);
    });

    it('runs the seed cross-platform count', async () => {
      const rows = await store.cypher(SEED_COUNT);
      const bySource: Record<string, unknown> = Object.fromEntries(
        rows.map((r) => [String(r['c.source']), [r.conversations, r.total_messages]]),
      );
      expect(bySource).toEqual({ chatgpt: [2, 6], 'claude-ai': [1, 2] });
    });

    it('runs the seed document search', async () => {
      const rows = await store.cypher(SEED_SEARCH, { search_term: 'sourdough' });
      expect(rows).toEqual([
        {
          'd.title': 'Claude AI: Claude on bread',
          'd.source': 'claude-ai',
          'd.created_at': '2025-01-01T10:00:00.000000Z',
        },
      ]);
    });

    it('names an untitled conversation conv-{id}, and keeps two of them apart', async () => {
      const rows = await store.cypher(
        `MATCH (c:Conversation) WHERE c.title IS NULL RETURN c.name AS name`,
      );
      expect(rows).toEqual([{ name: 'conv-gpt-b' }]);
    });

    it('keeps every branch reachable and NEXT on the shown thread only', async () => {
      const [all] = await store.cypher(
        `MATCH (c:Conversation {conversation_id: 'gpt-a'})-[:HAS_MESSAGE]->(m:Message) RETURN count(m) AS n`,
      );
      expect(all).toEqual({ n: 3 });
      const replies = await store.cypher(
        `MATCH (m:Message {conversation_id: 'gpt-a'})-[:REPLY_TO]->(p:Message) RETURN m.content AS child, p.content AS parent ORDER BY child`,
      );
      expect(replies).toEqual([
        { child: 'first answer', parent: 'hello' },
        { child: 'second answer', parent: 'hello' },
      ]);
      const off = await store.cypher(
        `MATCH (m:Message {conversation_id: 'gpt-a', on_shown_thread: false}) RETURN m.content AS content`,
      );
      expect(off).toEqual([{ content: 'first answer' }]);
    });

    it('pairs tool calls with results in deep mode', async () => {
      const rows = await store.cypher(
        `MATCH (c:Conversation {conversation_id: 'cl-1'})-[:HAS_TRACE]->(t:DecisionTrace)-[:HAS_STEP]->(s:TraceStep) RETURN t.id AS trace, s.action AS action, s.observation AS observation ORDER BY s.step`,
      );
      expect(rows).toEqual([
        {
          trace: 'claude-ai-trace-cl-1',
          action: 'tool_use:web_search',
          observation: '{"query":"proofing time"}',
        },
        {
          trace: 'claude-ai-trace-cl-1',
          action: 'tool_result:web_search',
          observation: 'four hours',
        },
      ]);
    });

    it('writes the same batch twice as once', async () => {
      const before = await store.counts();
      const report = await store.upsert(batchesOf(conversations));
      expect(report).toEqual({ written: 0, unchanged: 3 });
      expect(await store.counts()).toEqual(before);
    });

    it('writes the same content twice as once when the write path really runs twice', async () => {
      // A new hash each time defeats the unchanged-content check, so each upsert deletes and
      // writes every node and edge again: the graph must come out the same, not doubled.
      const hashed = (hash: string) => batchesOf(conversations).map((b) => ({ ...b, hash }));
      const once = await store.counts();
      const subgraphs = async () =>
        (await Promise.all(conversations.map((c) => store.subgraph(c.id)))).map(comparable);
      const graphs = await subgraphs();
      const hits = await store.search({ text: 'sourdough' });
      expect(hits.hits.length).toBeGreaterThan(0);
      for (const hash of ['first', 'second']) {
        expect(await store.upsert(hashed(hash))).toEqual({ written: 3, unchanged: 0 });
        expect(await store.counts()).toEqual(once);
        expect(await subgraphs()).toEqual(graphs);
        expect(await store.search({ text: 'sourdough' })).toEqual(hits);
      }
    });

    it('replaces a changed conversation without stale nodes or edges', async () => {
      const changed = structuredClone(
        conversations.find((c) => c.provider.conversation_id === 'gpt-a'),
      ) as Conversation;
      // Drop the second answer: its node and its edges must go.
      const gone = changed.messages.find((m) => m.content?.text === 'second answer');
      changed.messages = changed.messages.filter((m) => m !== gone);
      for (const m of changed.messages)
        m.children_ids = m.children_ids.filter((id) => id !== gone?.id);
      changed.raw_metadata.shown_leaf_id = changed.messages.find(
        (m) => m.content?.text === 'first answer',
      )?.id;
      changed.title = 'Renamed';
      await store.upsert(batchesOf([changed]));
      const rows = await store.cypher(SEED_THREAD, { conv_id: 'gpt-a' });
      expect(rows).toEqual([
        {
          thread: [
            { role: 'user', content: 'hello' },
            { role: 'assistant', content: 'first answer' },
          ],
        },
      ]);
      const counts = await store.counts();
      expect(counts.nodes.Message).toBe(7);
      expect(counts.nodes.Conversation).toBe(3);
      expect((await store.conversation('gpt-a'))?.name).toBe('Renamed');
      expect(
        (await store.search({ text: 'second' })).hits.map((h) => h.platformConversationId),
      ).toEqual(['gpt-b']);
    });

    it('deletes one conversation everywhere: nodes, edges, search, counts; once', async () => {
      const before = await store.counts();
      const gptA = await store.conversation('gpt-a');
      expect(gptA).toBeDefined();
      const owned = await store.subgraph('gpt-a');
      // By the platform's id; then by chatgraph's id it is gone.
      expect(await store.deleteConversation('gpt-a')).toBe(true);
      expect(await store.deleteConversation(gptA?.id ?? '')).toBe(false);
      expect(await store.deleteConversation('no-such-conversation')).toBe(false);
      expect(await store.conversation('gpt-a')).toBeUndefined();
      expect(await store.subgraph('gpt-a')).toBeUndefined();
      expect(
        (await store.search({ text: 'second' })).hits.map((h) => h.platformConversationId),
      ).toEqual(['gpt-b']);
      expect(
        (await store.search({ text: 'hello' })).hits.every(
          (h) => h.platformConversationId !== 'gpt-a',
        ),
      ).toBe(true);
      const after = await store.counts();
      expect(after.nodes.Conversation).toBe((before.nodes.Conversation ?? 0) - 1);
      const messages = owned?.nodes.filter((n) => n.label === 'Message').length ?? 0;
      expect(messages).toBeGreaterThan(0);
      expect(after.nodes.Message).toBe((before.nodes.Message ?? 0) - messages);
      expect(
        await store.cypher(`MATCH (m:Message {conversation_id: 'gpt-a'}) RETURN count(m) AS n`),
      ).toEqual([{ n: 0 }]);
      const stats = await store.stats();
      expect(stats.conversations).toBe(2);
      expect(stats.bySource.find((s) => s.source === 'chatgpt')?.conversations).toBe(1);
      // Written again, it comes back whole.
      const report = await store.upsert(batchesOf(conversations));
      expect(report).toEqual({ written: 1, unchanged: 2 });
      expect(await store.counts()).toEqual(before);
    });

    it('searches ranked, with snippets and filters', async () => {
      const { hits, matches, ranked, matchesCapped } = await store.search({ text: 'sourdough' });
      expect([matches, ranked, matchesCapped]).toEqual([1, 1, false]);
      expect(hits.map((h) => [h.platformConversationId, h.role])).toEqual([['cl-1', 'user']]);
      expect(hits[0]?.snippet).toContain('sourdough');
      expect(hits[0]?.title).toBe('Claude on bread');
      expect((await store.search({ text: 'answer', source: 'claude-ai' })).hits).toEqual([]);
      expect((await store.search({ text: 'answer', role: 'assistant' })).hits.length).toBe(4);
      expect(
        (await store.search({ text: 'answer', since: '2023-11-14T22:13:23Z' })).hits.length,
      ).toBe(2);
      await expect(store.search({ text: 'answer', since: 'last tuesday' })).rejects.toBeInstanceOf(
        QueryError,
      );
    });

    it('gives the shown thread in order, and every branch on request', async () => {
      const thread = await store.thread('gpt-a');
      expect(thread.map((m) => m.content)).toEqual(['hello', 'second answer']);
      const all = await store.thread('gpt-a', { allBranches: true });
      expect(all.map((m) => [m.content, m.depth])).toEqual([
        ['hello', 0],
        ['first answer', 1],
        ['second answer', 1],
      ]);
      const byPamId = await store.thread(conversations[0]?.id ?? '');
      expect(byPamId.length).toBeGreaterThan(0);
    });

    it('refuses writes, and reports unknown labels and syntax errors as query errors', async () => {
      await expect(store.cypher('CREATE (n:Message {id: "x"}) RETURN n')).rejects.toThrow(
        /writes are refused/,
      );
      await expect(store.cypher('MATCH (n:Nope) RETURN n')).rejects.toThrow(/unknown label :Nope/);
      await expect(store.cypher('MATCH (n RETURN n')).rejects.toBeInstanceOf(QueryError);
      expect((await store.counts()).nodes.Message).toBe(8);
    });

    it('keeps the URLs a message cites, one a line, for Cypher', async () => {
      const fixture = join(ROOT, 'test', 'fixtures', 'chatgpt', 'citations-2026.json');
      const { conversations: cited } = await convertToTemp([fixture]);
      await store.upsert(batchesOf(cited));
      const rows = await store.cypher(
        `MATCH (m:Message) WHERE m.citations CONTAINS 'museum.example.org' RETURN m.citations AS urls`,
      );
      expect(rows).toEqual([
        { urls: 'https://museum.example.org/hours\nhttps://museum.example.org/mondays' },
      ]);
      // A message that cites nothing has no citations property.
      expect(
        await store.cypher(
          `MATCH (m:Message {conversation_id: 'gpt-a'}) WHERE m.citations IS NOT NULL RETURN count(m) AS n`,
        ),
      ).toEqual([{ n: 0 }]);
    });

    it('keeps a coding agent’s token usage as Message properties, for Cypher', async () => {
      const fixture = join(
        ROOT,
        'test',
        'fixtures',
        'codex',
        'rollout-2025-10-29T09-12-04-019a2f3d-1704-7a1b-8c1d-2e3f4a5b6c7d.jsonl',
      );
      const { conversations: coded } = await convertToTemp([fixture]);
      await store.upsert(batchesOf(coded));
      const rows = await store.cypher(
        `MATCH (m:Message) WHERE m.output_tokens IS NOT NULL
         RETURN sum(m.input_tokens) AS input, sum(m.output_tokens) AS output,
                sum(m.cache_read_tokens) AS cached, sum(m.reasoning_tokens) AS reasoning, count(m) AS n`,
      );
      // Three model calls: 9120-2048, 10680-6912 and 11200-8040 uncached input tokens.
      expect(rows).toEqual([
        {
          input: 7072 + 3768 + 3160,
          output: 412 + 118 + 110,
          cached: 2048 + 6912 + 8040,
          reasoning: 300,
          n: 3,
        },
      ]);
      // A message the log gives no usage for has no token property.
      expect(
        await store.cypher(
          `MATCH (m:Message {conversation_id: 'gpt-a'}) WHERE m.input_tokens IS NOT NULL RETURN count(m) AS n`,
        ),
      ).toEqual([{ n: 0 }]);
    });

    it('lists conversations that branch, or that call tools', async () => {
      const ids = async (filter: ConversationFilter): Promise<string[]> =>
        (await store.listConversations(filter)).items.map((c) => c.platformId).sort();
      expect(await ids({ hasBranches: true })).toEqual(['gpt-a', 'gpt-b']);
      expect(await ids({ hasToolCalls: true })).toEqual(['cl-1']);
      expect(await ids({ hasToolCalls: true, hasBranches: true })).toEqual([]);
      expect(await ids({ title: 'BREAD' })).toEqual(['cl-1']);
      expect((await store.listConversations({ sort: 'oldest', limit: 1 })).total).toBe(3);
    });

    it("gives a conversation's subgraph as it was written", async () => {
      const conversation = conversations.find((c) => c.provider.conversation_id === 'cl-1');
      const [written] = batchesOf(conversation ? [conversation] : []);
      const stored = await store.subgraph('cl-1');
      expect(stored?.owner).toBe(written?.owner);
      expect(nodes(stored)).toEqual(nodes(written));
      expect(edges(stored)).toEqual(edges(written));
      expect(await store.subgraph('no-such-conversation')).toBeUndefined();
    });

    it('keeps pasted text as Attachment nodes: thread, Cypher, subgraph and counts', async () => {
      const written = await pastedBatch();
      await store.upsert([written]);
      const thread = await store.thread('cl-paste');
      expect(thread[0]?.attachments).toEqual([
        {
          id: `${thread[0]?.id ?? ''}:attachment-0`,
          name: 'notes.txt',
          mimeType: 'text/plain',
          ref: expect.stringMatching(/^attachments\/text\/.+\/1-notes\.txt$/) as unknown,
          sizeBytes: Buffer.byteLength(PASTED_NOTES),
          text: PASTED_NOTES,
        },
        expect.objectContaining({ name: null, text: PASTED_UNNAMED }),
        expect.objectContaining({ name: 'scan.pdf', ref: null, text: null }),
        expect.objectContaining({ name: 'photo.png', mimeType: null, text: null }),
      ]);
      expect(thread[1]?.attachments).toEqual([]);
      const context = await store.messageContext(thread[1]?.id ?? '', 1, 0);
      expect(context[0]?.attachments.map((a) => a.name)).toEqual([
        'notes.txt',
        null,
        'scan.pdf',
        'photo.png',
      ]);
      expect(
        await store.cypher(
          `MATCH (m:Message)-[:HAS_ATTACHMENT]->(a:Attachment) WHERE a.content IS NOT NULL
           RETURN m.role AS role, a.name, a.content ORDER BY a.position`,
        ),
      ).toEqual([
        { role: 'user', 'a.name': 'notes.txt', 'a.content': PASTED_NOTES },
        { role: 'user', 'a.name': null, 'a.content': PASTED_UNNAMED },
      ]);
      const stored = await store.subgraph('cl-paste');
      const attachmentNodes = (batch: GraphBatch | undefined): unknown[] =>
        (batch?.nodes ?? [])
          .filter((n) => n.label === 'Attachment')
          .map((n) => ({
            id: n.id,
            properties: Object.fromEntries(
              Object.entries(n.properties).filter(([, v]) => v !== null),
            ),
          }))
          .sort((a, b) => a.id.localeCompare(b.id));
      expect(attachmentNodes(stored)).toEqual(attachmentNodes(written));
      expect(stored?.edges.filter((e) => e.kind === 'HAS_ATTACHMENT')).toHaveLength(4);
      const { nodes, edges } = await store.counts();
      expect([nodes.Attachment, edges.HAS_ATTACHMENT]).toEqual([4, 4]);
    });

    it('takes anything a person types as a search: hits, or a one-line error of its own', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string(),
            fc.stringMatching(/^[a-z"*+\-:()[\]{}~^!?&|\\/ ]{0,20}$/),
            fc.stringMatching(/^(?:[a-c"*()\- ]|the |OR |NOT |AND ){0,16}$/),
          ),
          async (text) => {
            try {
              const result = await store.search({ text });
              expect(result.hits.length).toBeLessThanOrEqual(20);
            } catch (error) {
              expect(error).toBeInstanceOf(QueryError);
              expect((error as Error).message).toMatch(SEARCH_ERRORS);
            }
          },
        ),
        { numRuns: 80 },
      );
    });

    describe('keyword search', () => {
      beforeEach(async () => {
        await store.upsert(searchBatches());
      });
      const ids = async (text: string, extra: Partial<SearchQuery> = {}): Promise<string[]> =>
        (await store.search({ text, ...extra })).hits.map((h) => h.messageId).sort();

      it('finds either word with OR, and leaves words out with NOT and -word', async () => {
        expect(await ids('focaccia OR marathon')).toEqual([
          'kw-bread:m1',
          'kw-bread:m2',
          'kw-run:m4',
          'kw-run:m5',
        ]);
        expect(await ids('focaccia NOT levain')).toEqual(['kw-bread:m1']);
        expect(await ids('focaccia -levain')).toEqual(['kw-bread:m1']);
        expect(await ids('(focaccia OR marathon) -levain -taper')).toEqual([
          'kw-bread:m1',
          'kw-run:m4',
        ]);
        await expect(store.search({ text: '-levain' })).rejects.toThrow(
          /^nothing to search for: NOT and -word only leave words out/,
        );
      });

      it('matches phrases in order, prefixes, and stemmed forms', async () => {
        expect(await ids('"starter smells"')).toEqual(['kw-bread:m1']);
        expect(await ids('"smells starter"')).toEqual([]);
        expect(await ids('acet*')).toEqual(['kw-bread:m1']);
        expect(await ids('decorator')).toEqual(['kw-bread:m3']);
        expect(await ids('decorat*')).toEqual(['kw-bread:m3']);
        expect(await ids('smell training')).toEqual([]);
        const [hit] = (await store.search({ text: 'decorator' })).hits;
        expect(hit?.snippet).toBe(`I love Python ${MATCH_START}decorators${MATCH_END}`);
      });

      it('finds text in attachments, as a hit on the message carrying it', async () => {
        const result = await store.search({ text: 'pumpernickel rye' });
        expect(result.matches).toBe(1);
        expect(result.hits).toHaveLength(1);
        const [hit] = result.hits;
        expect(hit?.attachment).toEqual({ id: 'kw-att-1', name: 'recipe.txt' });
        expect(hit?.messageId).toBe('kw-bread:m3');
        expect(hit?.title).toBe('Bread notes');
        expect(hit?.role).toBe('user');
        expect(hit?.snippet).toContain(`${MATCH_START}Pumpernickel${MATCH_END}`);
        // A message hit and an attachment hit in one list; filters apply to the carrying message.
        expect(await ids('decorators OR pumpernickel')).toEqual(['kw-bread:m3', 'kw-bread:m3']);
        expect(await ids('pumpernickel', { role: 'assistant' })).toEqual([]);
        expect(await ids('pumpernickel', { source: 'chatgpt', since: '2024-02-01' })).toEqual([
          'kw-bread:m3',
        ]);
      });

      it('counts matches after filters, says the mode and ranks each hit', async () => {
        const all = await store.search({ text: 'focaccia OR marathon' });
        expect([all.mode, all.matches, all.matchesCapped]).toEqual(['keyword', 4, false]);
        expect(all.hits.map((h) => h.why)).toEqual(
          [1, 2, 3, 4].map((rank) => ({ keyword: { rank } })),
        );
        const count = async (extra: Partial<SearchQuery>): Promise<number> =>
          (await store.search({ text: 'focaccia OR marathon', ...extra })).matches;
        expect(await count({ source: 'claude-ai' })).toBe(2);
        expect(await count({ role: 'assistant' })).toBe(2);
        expect(await count({ since: '2024-02-15' })).toBe(2);
        expect(await count({ until: '2024-02-15', role: 'user' })).toBe(1);
      });

      it('counts the conversations holding the words exactly, the same on every page', async () => {
        const conversations = async (text: string, extra: Partial<SearchQuery> = {}) =>
          (await store.search({ text, ...extra })).conversationCount;
        for (const limit of [1, 2, 30])
          expect(await conversations('focaccia OR marathon OR zeppelin', { limit })).toBe(3);
        expect(await conversations('zeppelin', { limit: 1, offset: 3 })).toBe(1);
        // A message and an attachment of one conversation count it once.
        expect(await conversations('focaccia OR pumpernickel')).toBe(1);
        expect(await conversations('focaccia OR marathon', { source: 'claude-ai' })).toBe(1);
        expect(await conversations('focaccia OR marathon', { role: 'assistant', limit: 1 })).toBe(
          2,
        );
        expect(await conversations('nowhere-to-be-found')).toBe(0);
      });

      it('keeps a snippet short on a message of one 5 MB token', async () => {
        await store.upsert([longTokenBatch()]);
        for (const text of ['quokka', 'qqq*']) {
          const [hit] = (await store.search({ text })).hits;
          expect(hit?.messageId).toBe('kw-blob:m1');
          const shown = (hit?.snippet ?? '').split(MATCH_START).join('').split(MATCH_END).join('');
          expect(shown.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS + 2);
        }
      });

      it('pages with offset: each hit once, ranks going on', async () => {
        const page = async (offset: number): Promise<[string, number][]> =>
          (await store.search({ text: 'zeppelin', limit: 10, offset })).hits.map((h) => [
            h.messageId,
            h.why?.keyword?.rank ?? 0,
          ]);
        const pages = [...(await page(0)), ...(await page(10)), ...(await page(20))];
        expect(pages.map(([, rank]) => rank)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
        expect(new Set(pages.map(([id]) => id)).size).toBe(25);
        const first = await store.search({ text: 'zeppelin', limit: 25 });
        expect(first.hits.map((h) => h.messageId)).toEqual(pages.map(([id]) => id));
        expect((await store.search({ text: 'zeppelin', offset: 25 })).hits).toEqual([]);
        expect((await store.search({ text: 'zeppelin', offset: 5 })).matches).toBe(25);
      });

      it('hints at a word that would match when nothing does', async () => {
        const none = await store.search({ text: 'focacia' });
        expect([none.hits, none.matches, none.hint]).toEqual([[], 0, 'focaccia']);
        expect((await store.search({ text: 'focacia starter' })).hint).toBe('focaccia starter');
        expect((await store.search({ text: 'pumpernikel' })).hint).toBe('pumpernickel');
        // Every word is somewhere, only not together: no hint.
        expect((await store.search({ text: 'marathon levain' })).hint).toBeUndefined();
        expect((await store.search({ text: 'focaccia' })).hint).toBeUndefined();
        // Two neighbouring letters swapped are one edit, as people mistype.
        expect((await store.search({ text: 'focaccia acetnoe' })).hint).toBe('focaccia acetone');
        // A hint that would still find nothing is none: one word has no near word.
        expect((await store.search({ text: 'focacia qzxwvbk' })).hint).toBeUndefined();
      });
    });

    it('counts per source, month and role', async () => {
      const stats = await store.stats();
      expect(stats.conversations).toBe(3);
      expect(stats.messages).toBe(8);
      expect(stats.bySource).toEqual([
        { source: 'chatgpt', conversations: 2, messages: 6 },
        { source: 'claude-ai', conversations: 1, messages: 2 },
      ]);
      expect(stats.byRole.find((r) => r.role === 'assistant')?.messages).toBe(5);
      expect(stats.byModel).toEqual([{ model: 'gpt-4o', messages: 4 }]);
      expect(await store.sources()).toEqual(['chatgpt', 'claude-ai']);
    });
  });
}
