import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Conversation, Memory } from '../../src/model/pam.js';
import { newMemory } from '../../src/model/memory-input.js';
import { projectPlatformProjects } from '../../src/graph/platform-projects.js';
import { MATCH_END, MATCH_START, type Store } from '../../src/stores/store.js';
import { batchesOf, knownConversations } from '../support/graph-fixtures.js';
import { bagOfWords } from './vector-contract.js';
import { SNIPPET_MAX_CHARS } from '../../src/search/snippet.js';

const NOW = '2026-12-01T10:00:00Z';

function memory(
  id: string,
  content: string,
  source: { conversation?: string; message?: string } = {},
): Memory {
  return newMemory(
    id,
    { content, type: 'fact', tags: ['contract'] },
    { platform: 'local', conversationRef: source.conversation, messageRef: source.message },
    'manual',
    NOW,
  );
}

/** The Memory nodes every Store keeps: DERIVED_FROM their source, searchable, replaced whole. */
export function memoryContract(name: string, open: () => Promise<Store>): void {
  describe(`Memory contract: ${name}`, () => {
    let store: Store;
    let conversation: Conversation;

    beforeEach(async () => {
      store = await open();
      const conversations = await knownConversations();
      conversation = conversations[0] as Conversation;
      await store.upsert(batchesOf(conversations));
    });
    afterEach(async () => {
      await store.close();
    });

    const edges = (): Promise<unknown[]> =>
      store.cypher(
        'MATCH (m:Memory)-[:DERIVED_FROM]->(x) RETURN m.id AS memory, labels(x)[0] AS label, x.id AS target ORDER BY memory',
      );

    it('writes a Claude.ai project as a Project node with its documents, replaced whole', async () => {
      const projectMemory = (
        id: string,
        tags: string[],
        metadata: Record<string, string>,
      ): Memory => ({
        ...memory(id, `text of ${id}`),
        tags,
        provenance: { platform: 'claude', extraction_method: 'api_export', extractor: 'contract' },
        metadata: { project_uuid: 'p-1', ...metadata },
      });
      const project = projectMemory('p', ['claude-project'], {
        name: 'Allotment',
        instructions: 'Metric units.',
      });
      const frost = projectMemory('d1', ['claude-project-doc'], { filename: 'frost.md' });
      const layout = projectMemory('d2', ['claude-project-doc'], { filename: 'layout.txt' });
      const documents = (): Promise<unknown[]> =>
        store.cypher(
          `MATCH (p:Project {project_id: 'p-1'}) OPTIONAL MATCH (p)-[:HAS_PROJECT_DOCUMENT]->(d:Document)
           RETURN p.name AS name, p.instructions AS instructions, d.title AS title ORDER BY title`,
        );
      const before = await store.conversationCount();
      await store.upsert(projectPlatformProjects([project, frost, layout]));
      expect(await documents()).toEqual([
        {
          name: 'Allotment',
          instructions: 'Metric units.',
          title: 'Claude AI project Allotment: frost.md',
        },
        {
          name: 'Allotment',
          instructions: 'Metric units.',
          title: 'Claude AI project Allotment: layout.txt',
        },
      ]);
      await store.upsert(projectPlatformProjects([project, layout]));
      expect(await documents()).toEqual([
        {
          name: 'Allotment',
          instructions: 'Metric units.',
          title: 'Claude AI project Allotment: layout.txt',
        },
      ]);
      expect(await store.conversationCount()).toBe(before);
    });

    it('writes Memory nodes with DERIVED_FROM to their message or conversation', async () => {
      const message = conversation.messages[0]?.id ?? '';
      await store.memories.replace([
        memory('m1', 'Prefers rye flour for the levain', {
          conversation: conversation.id,
          message,
        }),
        memory('m2', 'Talked about proofing baskets', { conversation: conversation.id }),
        memory('m3', 'Lives near the sea'),
        memory('m4', 'From a conversation the store lacks', { conversation: 'gone' }),
      ]);
      const [count] = await store.cypher('MATCH (m:Memory) RETURN count(m) AS n');
      expect(Number(count?.n)).toBe(4);
      expect(await edges()).toEqual([
        { memory: 'm1', label: 'Message', target: `${conversation.id}:${message}` },
        { memory: 'm2', label: 'Conversation', target: conversation.id },
      ]);
      const [node] = await store.cypher(
        'MATCH (m:Memory {id: $id}) RETURN m.type AS type, m.status AS status, m.tags AS tags, m.conversation_ref AS ref',
        { id: 'm1' },
      );
      expect(node).toEqual({
        type: 'fact',
        status: 'active',
        tags: 'contract',
        ref: conversation.id,
      });
    });

    it('finds active memories by words, with a marked snippet and their source', async () => {
      const message = conversation.messages[0]?.id ?? '';
      const retracted: Memory = { ...memory('m2', 'Rye bread every morning'), status: 'retracted' };
      await store.memories.replace([
        memory('m1', 'Prefers rye flour for the levain', {
          conversation: conversation.id,
          message,
        }),
        retracted,
      ]);
      const found = await store.memories.search('rye', 10);
      expect(found.map((m) => m.id)).toEqual(['m1']);
      expect(found[0]).toMatchObject({
        type: 'fact',
        tags: ['contract'],
        source: 'local',
        conversationId: conversation.id,
        messageId: `${conversation.id}:${message}`,
        snippet: `Prefers ${MATCH_START}rye${MATCH_END} flour for the levain`,
      });
      // Stemmed as message search is, and the history on request.
      expect((await store.memories.search('preferring', 10)).map((m) => m.id)).toEqual(['m1']);
      expect(
        (await store.memories.search('rye', 10, { all: true })).map((m) => m.id).sort(),
      ).toEqual(['m1', 'm2']);
      expect(await store.memories.search('sourdough', 10)).toEqual([]);
    });

    it('keeps a memory snippet short on one 5 MB token', async () => {
      // Longer than `remember` takes (20,000 characters), as a memory imported from an export can be.
      const long = `quokka ${'q'.repeat(5 * 1024 * 1024)}`;
      await store.memories.replace([{ ...memory('m1', 'quokka'), content: long }]);
      const [found] = await store.memories.search('quokka', 10);
      const shown = (found?.snippet ?? '').split(MATCH_START).join('').split(MATCH_END).join('');
      expect(found?.id).toBe('m1');
      expect(shown.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS + 2);
    });

    it('finds active memories by their vectors, of the query model only, and clears them', async () => {
      const texts = ['Prefers rye flour for the levain', 'Lives near the sea', 'Rye every day'];
      const [rye, sea, retractedVector] = await bagOfWords.embed(texts);
      if (!rye || !sea || !retractedVector) throw new Error('no vector');
      const model = bagOfWords.model.id;
      await store.memories.replace(
        [
          memory('m1', texts[0] ?? ''),
          memory('m2', texts[1] ?? ''),
          { ...memory('m3', texts[2] ?? ''), status: 'retracted' },
        ],
        [
          { memoryId: 'm1', model, vector: rye },
          { memoryId: 'm2', model, vector: sea },
          { memoryId: 'm3', model, vector: retractedVector },
          // A vector of a memory the list lacks is not indexed.
          { memoryId: 'gone', model, vector: sea },
        ],
      );
      expect(await store.memories.vectorModel()).toEqual({
        id: model,
        dimensions: bagOfWords.model.dimensions,
        count: 3,
      });
      const [query] = await bagOfWords.embed(['rye flour']);
      if (!query) throw new Error('no vector');
      const found = await store.memories.searchByMeaning(query, model, 5);
      expect(found.map((m) => m.id)).toEqual(['m1', 'm2']);
      expect(found[0]?.score).toBeGreaterThan(0.3);
      expect(found[0]?.score).toBeLessThanOrEqual(1.0001);
      expect(found[0]).toMatchObject({ type: 'fact', source: 'local', tags: ['contract'] });
      expect(await store.memories.searchByMeaning(query, 'another-model', 5)).toEqual([]);
      // The same memories without vectors: none found by meaning.
      await store.memories.replace([memory('m1', texts[0] ?? '')]);
      expect(await store.memories.searchByMeaning(query, model, 5)).toEqual([]);
      await store.memories.replace(
        [memory('m1', texts[0] ?? '')],
        [{ memoryId: 'm1', model, vector: rye }],
      );
      await store.clear();
      expect(await store.memories.vectorModel()).toBeUndefined();
      expect(await store.memories.searchByMeaning(query, model, 5)).toEqual([]);
    });

    it('replaces the memories whole, and keeps them when a conversation goes', async () => {
      await store.memories.replace([
        memory('m1', 'First'),
        memory('m2', 'Second', { conversation: conversation.id }),
      ]);
      await store.memories.replace([
        memory('m2', 'Second, edited', { conversation: conversation.id }),
      ]);
      expect(
        await store.cypher('MATCH (m:Memory) RETURN m.id AS id, m.content AS content'),
      ).toEqual([{ id: 'm2', content: 'Second, edited' }]);
      expect((await store.memories.search('first', 10)).length).toBe(0);
      await store.deleteConversation(conversation.id);
      expect(await store.cypher('MATCH (m:Memory) RETURN m.id AS id')).toEqual([{ id: 'm2' }]);
      expect(await edges()).toEqual([]);
      await store.clear();
      expect(await store.cypher('MATCH (m:Memory) RETURN m.id AS id')).toEqual([]);
      expect(await store.memories.search('edited', 10)).toEqual([]);
    });

    it('upserts only the memories given: their node, edge, words and vectors; the rest stay', async () => {
      const [rye, sea, loaf] = await bagOfWords.embed([
        'rye flour levain',
        'lives by the sea',
        'spelt loaf',
      ]);
      if (!rye || !sea || !loaf) throw new Error('no vector');
      const model = bagOfWords.model.id;
      await store.memories.replace(
        [
          memory('m1', 'Prefers rye flour for the levain', { conversation: conversation.id }),
          memory('m2', 'Lives by the sea'),
        ],
        [
          { memoryId: 'm1', model, vector: rye },
          { memoryId: 'm2', model, vector: sea },
        ],
      );
      const retracted: Memory = { ...memory('m2', 'Lives by the sea'), status: 'retracted' };
      await store.memories.upsert(
        [retracted, memory('m3', 'Wants to bake a spelt loaf', { conversation: conversation.id })],
        [{ memoryId: 'm3', model, vector: loaf }],
      );
      expect(
        await store.cypher('MATCH (m:Memory) RETURN m.id AS id, m.status AS status ORDER BY id'),
      ).toEqual([
        { id: 'm1', status: 'active' },
        { id: 'm2', status: 'retracted' },
        { id: 'm3', status: 'active' },
      ]);
      expect(await edges()).toEqual([
        { memory: 'm1', label: 'Conversation', target: conversation.id },
        { memory: 'm3', label: 'Conversation', target: conversation.id },
      ]);
      expect((await store.memories.search('sea', 10)).map((m) => m.id)).toEqual([]);
      expect((await store.memories.search('sea', 10, { all: true })).map((m) => m.id)).toEqual([
        'm2',
      ]);
      expect((await store.memories.search('spelt', 10)).map((m) => m.id)).toEqual(['m3']);
      expect((await store.memories.search('levain', 10)).map((m) => m.id)).toEqual(['m1']);
      const byMeaning = await store.memories.searchByMeaning(loaf, model, 5);
      expect(byMeaning.map((m) => m.id).sort()).toEqual(['m1', 'm3']);
      expect(byMeaning[0]?.id).toBe('m3');
      expect((await store.memories.vectorModel())?.count).toBe(2);
      // Upserted again with new words: the old ones are not found any more.
      await store.memories.upsert([memory('m3', 'Wants to bake a barley loaf')]);
      expect(await store.memories.search('spelt', 10)).toEqual([]);
      expect((await store.memories.search('barley', 10)).map((m) => m.id)).toEqual(['m3']);
      expect((await store.memories.vectorModel())?.count).toBe(1);
    });
  });
}
