import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { flushMemories } from '../src/memory/write-memories.js';
import { forget, remember, reviseMemory } from '../src/memory/remember.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { MemoryNotFoundError } from '../src/api/memory.js';
import type { Relation } from '../src/model/pam.js';
import { readMemoryStore } from '../src/bundle/read-memory-store.js';
import { tempDir } from './support/convert-to-temp.js';
import { memoryStoreErrors } from './support/pam-validator.js';
import { pamValidate } from './support/pam-sdk.js';
import { ROOT } from './support/shared.js';
import { Folder } from '../src/folder/folder.js';
import { bundleAt } from './support/bundle-at.js';

const kinds = (relations: readonly Relation[]): string[] =>
  relations.map((r) => `${r.from} ${r.type} ${r.to}`).sort();

function fileRelations(dataDir: string): Relation[] {
  const text = readFileSync(join(layoutOf(dataDir).bundle.dir, 'memory-store.json'), 'utf8');
  const store = JSON.parse(text) as { relations: Relation[] };
  return store.relations;
}

function expectValid(dataDir: string): void {
  const bundle = layoutOf(dataDir).bundle.dir;
  const text = readFileSync(join(bundle, 'memory-store.json'), 'utf8');
  expect(memoryStoreErrors(JSON.parse(text) as unknown)).toEqual([]);
  const { status, output } = pamValidate(bundle);
  expect(output).toMatch(/\b0 invalid\b/);
  expect(status, output).toBe(0);
}

// The relations as the store's graph has them, walked by Cypher.
async function graphRelations(dataDir: string): Promise<string[]> {
  const store = await new Folder(dataDir).openStore({ readonly: true });
  try {
    const rows = await store.cypher(
      `MATCH (a:Memory)-[r]->(b:Memory) RETURN a.id AS a, toLower(type(r)) AS t, b.id AS b`,
    );
    return rows.map((r) => `${String(r.a)} ${String(r.t)} ${String(r.b)}`).sort();
  } finally {
    await store.close();
  }
}

describe('PAM relations between memories', () => {
  const dataDir = join(tempDir(), 'data');
  const ids: Record<string, string> = {};
  let expected: string[] = [];

  beforeAll(async () => {
    const target = new Folder(dataDir);
    const sky = await remember(target, { content: 'The sky over Lyon is blue', type: 'fact' });
    ids.sky = sky.memory.id;
    // By the start of its id, as the CLI prints ids elsewhere.
    const photo = await remember(target, {
      content: 'A photo of Lyon shows a blue sky',
      type: 'fact',
      relations: [{ type: 'supports', to: ids.sky.slice(0, 10), confidence: 0.7 }],
    });
    ids.photo = photo.memory.id;
    const fog = await remember(target, {
      content: 'Lyon is foggy in November',
      type: 'fact',
      relations: [
        { type: 'contradicts', to: ids.sky },
        { type: 'extends', to: ids.sky },
        { type: 'derived_from', to: ids.photo },
        { type: 'related_to', to: ids.photo },
      ],
    });
    ids.fog = fog.memory.id;
    const revised = await reviseMemory(target, ids.sky, { content: 'The sky over Lyon is grey' });
    ids.grey = revised.memory.id;
    // Forgotten, its relations stay: it is retracted, not deleted.
    await forget(target, ids.photo);
    expected = [
      `${ids.photo} supports ${ids.sky}`,
      `${ids.fog} contradicts ${ids.sky}`,
      `${ids.fog} extends ${ids.sky}`,
      `${ids.fog} derived_from ${ids.photo}`,
      `${ids.fog} related_to ${ids.photo}`,
      `${ids.grey} supersedes ${ids.sky}`,
    ].sort();
  }, 60_000);

  it('records remember and revise relations, journalled and then in memory-store.json', async () => {
    const read = await readMemoryStore(bundleAt(layoutOf(dataDir).bundle.dir));
    expect(kinds(read?.relations ?? [])).toEqual(expected);
    const supports = read?.relations.find((r) => r.type === 'supports');
    expect(supports?.confidence).toBe(0.7);
    await flushMemories(new Folder(dataDir));
    const written = fileRelations(dataDir);
    expect(kinds(written)).toEqual(expected);
    expect(new Set(written.map((r) => r.id)).size).toBe(written.length);
    expectValid(dataDir);
  });

  it('projects them as edges between Memory nodes, kept after the memory changes', async () => {
    expect(await graphRelations(dataDir)).toEqual(expected);
    const walked = await new Folder(dataDir).openStore({ readonly: true });
    try {
      // What the revised memory replaced, and what contradicts that: two relations away.
      const rows = await walked.cypher(
        `MATCH (:Memory {id: $id})-[:SUPERSEDES]->(old:Memory)<-[:CONTRADICTS]-(f:Memory)
         RETURN old.status AS status, f.content AS content`,
        { id: ids.grey },
      );
      expect(rows).toEqual([{ status: 'superseded', content: 'Lyon is foggy in November' }]);
    } finally {
      await walked.close();
    }
  });

  it('refuses a relation to a memory that is not there, writing nothing', async () => {
    const before = await readMemoryStore(bundleAt(layoutOf(dataDir).bundle.dir));
    await expect(
      remember(new Folder(dataDir), {
        content: 'Lyon has two rivers',
        type: 'fact',
        relations: [{ type: 'supports', to: 'no-such-memory-id' }],
      }),
    ).rejects.toThrow(MemoryNotFoundError);
    const after = await readMemoryStore(bundleAt(layoutOf(dataDir).bundle.dir));
    expect(after?.memories.length).toBe(before?.memories.length);
    expect(kinds(after?.relations ?? [])).toEqual(expected);
  });

  it('keeps the relations when an import rewrites the memory store', async () => {
    await remember(new Folder(dataDir), {
      content: 'Lyon sits where two rivers meet',
      type: 'fact',
      relations: [],
    }).then(({ memory }) =>
      remember(new Folder(dataDir), {
        content: 'The Saone meets the Rhone in Lyon',
        type: 'fact',
        relations: [{ type: 'extends', to: memory.id }],
      }),
    );
    // The last relation is in the journal; the import folds it in with the rest.
    await importExports(new Folder(dataDir), [join(ROOT, 'samples', 'claude-export.zip')]);
    const written = fileRelations(dataDir);
    expect(written).toHaveLength(expected.length + 1);
    expect(kinds(written)).toEqual(expect.arrayContaining(expected));
    expectValid(dataDir);
    // The import synced the store from the bundle: every relation an edge again.
    expect(await graphRelations(dataDir)).toEqual(kinds(written));
  }, 120_000);
});
