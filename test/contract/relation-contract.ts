import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Memory, Relation, RelationType } from '../../src/model/pam.js';
import { newMemory } from '../../src/model/memory-input.js';
import type { Store } from '../../src/stores/store.js';

const NOW = '2026-12-01T10:00:00Z';

function memory(id: string, content: string): Memory {
  return newMemory(id, { content, type: 'fact', tags: [] }, { platform: 'local' }, 'manual', NOW);
}

const relation = (id: string, from: string, type: RelationType, to: string): Relation => ({
  id,
  from,
  to,
  type,
  created_at: NOW,
});

/** PAM relations as edges between Memory nodes, one type per relation type, walked by Cypher. */
export function relationContract(name: string, open: () => Promise<Store>): void {
  describe(`Relation contract: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    const memories = [
      memory('m-old', 'The kiln fires at 1200 degrees'),
      memory('m-new', 'The kiln fires at 1280 degrees'),
      memory('m-glaze', 'The glaze matures at cone 10'),
      memory('m-photo', 'A photo of the cone pack'),
      memory('m-doubt', 'The kiln never reached cone 10'),
    ];
    const relations = [
      relation('r1', 'm-new', 'supersedes', 'm-old'),
      relation('r2', 'm-glaze', 'extends', 'm-new'),
      relation('r3', 'm-photo', 'supports', 'm-glaze'),
      relation('r4', 'm-doubt', 'contradicts', 'm-glaze'),
      relation('r5', 'm-glaze', 'derived_from', 'm-photo'),
      relation('r6', 'm-doubt', 'related_to', 'm-old'),
      // To a memory the store was not given: no edge, and no error.
      relation('r7', 'm-doubt', 'supports', 'm-missing'),
    ];
    const walk = async (): Promise<string[]> =>
      (
        await store.cypher(
          'MATCH (a:Memory)-[r:SUPERSEDES|SUPPORTS|CONTRADICTS|EXTENDS|RELATED_TO|DERIVED_FROM]->(b:Memory) RETURN a.id AS a, type(r) AS t, b.id AS b',
        )
      )
        .map((row) => `${String(row.a)} ${String(row.t)} ${String(row.b)}`)
        .sort();

    it('writes each relation as an edge of its type, walked both ways by Cypher', async () => {
      await store.memories.replace(memories, [], relations);
      expect(await walk()).toEqual(
        [
          'm-new SUPERSEDES m-old',
          'm-glaze EXTENDS m-new',
          'm-photo SUPPORTS m-glaze',
          'm-doubt CONTRADICTS m-glaze',
          'm-glaze DERIVED_FROM m-photo',
          'm-doubt RELATED_TO m-old',
        ].sort(),
      );
      // A path: what the newest kiln memory is backed by, two relations away.
      const backing = await store.cypher(
        'MATCH (n:Memory {id: $id})<-[:EXTENDS]-(g:Memory)<-[:SUPPORTS]-(p:Memory) RETURN p.content AS content',
        { id: 'm-new' },
      );
      expect(backing).toEqual([{ content: 'A photo of the cone pack' }]);
      // A memory's own source edge stays apart: DERIVED_FROM to a Memory is the relation only.
      const derived = await store.cypher(
        'MATCH (:Memory {id: $id})-[:DERIVED_FROM]->(x) RETURN labels(x)[0] AS label, x.id AS id',
        { id: 'm-glaze' },
      );
      expect(derived).toEqual([{ label: 'Memory', id: 'm-photo' }]);
    });

    it('keeps the edges when a memory changes and adds those an upsert brings', async () => {
      await store.memories.replace(memories, [], relations.slice(0, 2));
      const retracted: Memory = { ...(memories[0] as Memory), status: 'retracted' };
      await store.memories.upsert(
        [retracted, memories[4] as Memory],
        [],
        [relation('r4', 'm-doubt', 'contradicts', 'm-glaze')],
      );
      expect(await walk()).toEqual(
        ['m-new SUPERSEDES m-old', 'm-glaze EXTENDS m-new', 'm-doubt CONTRADICTS m-glaze'].sort(),
      );
      // Replaced whole, the edges are exactly the relations given.
      await store.memories.replace(memories, [], relations.slice(4, 5));
      expect(await walk()).toEqual(['m-glaze DERIVED_FROM m-photo']);
    });
  });
}
