import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { createRecaller } from '../src/recall/recaller.js';
import { embedStore } from '../src/recall/embed-store.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { remember, reviseMemory } from '../src/memory/remember.js';
import { tempDir } from './support/convert-to-temp.js';
import { testModelDir } from './support/embedding-model.js';
import { embeddingsErrors } from './support/pam-validator.js';
import { writeExport, TOPICS } from './support/recall-fixtures.js';
import { Folder } from '../src/folder/folder.js';

function vectorIds(dataDir: string): string[] {
  const path = join(layoutOf(dataDir).bundle.dir, 'embeddings.json');
  if (!existsSync(path)) return [];
  const file = JSON.parse(readFileSync(path, 'utf8')) as {
    embeddings: { memory_id: string }[];
  };
  expect(embeddingsErrors(file)).toEqual([]);
  return file.embeddings.map((e) => e.memory_id).sort();
}

/** The memories a search lists, by id, through the library's recaller. */
async function memoriesFound(
  dataDir: string,
  text: string,
  mode: 'keyword' | 'semantic',
): Promise<string[]> {
  const store = await new Folder(dataDir).openStore({ readonly: true });
  const recaller = createRecaller(store, new Folder(dataDir), { modelDir: testModelDir() });
  try {
    const result = await recaller.search({ text, mode, limit: 3 });
    return (result.memories ?? []).map((m) => m.memory?.id ?? '');
  } finally {
    await recaller.close();
    await store.close();
  }
}

async function embed(dataDir: string): Promise<{ memories: number; embedded: number }> {
  const store = await new Folder(dataDir).openStore();
  try {
    return (await embedStore(new Folder(dataDir), { modelDir: testModelDir() })).memories;
  } finally {
    await store.close();
  }
}

describe('a memory gets its vector when it is written', () => {
  it('says a data folder that was never embedded searches memories by words only', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    await importExports(new Folder(dataDir), [writeExport(dir, TOPICS.slice(0, 1))]);
    const { vector } = await remember(new Folder(dataDir), {
      content: 'Lives in Porto',
      type: 'fact',
    });
    expect(vector.state).toBe('none');
    expect(vector.note).toMatch(/chatgraph embed/);
  });

  it('a recaller opened before the first embed searches by meaning once there are vectors', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    await importExports(new Folder(dataDir), [writeExport(dir, TOPICS.slice(0, 1))]);
    const store = await new Folder(dataDir).openStore({ readonly: true });
    const recaller = createRecaller(store, new Folder(dataDir), { modelDir: testModelDir() });
    try {
      expect((await recaller.search({ text: 'starter', limit: 3 })).mode).toBe('keyword');
      await embed(dataDir);
      const result = await recaller.search({ text: 'bread leaven odour', mode: 'semantic' });
      expect(result.hits[0]?.platformConversationId).toBe('starter');
    } finally {
      await recaller.close();
      await store.close();
    }
  });

  it('without a model: remembered, found by words, embedded by the next embed; an edit replaces the vector', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    await importExports(new Folder(dataDir), [writeExport(dir, TOPICS.slice(0, 2))]);
    await embed(dataDir);
    const noModel = join(dir, 'no-models');
    mkdirSync(noModel);
    const made = await remember(
      new Folder(dataDir),
      { content: 'The user is allergic to peanuts and carries an epinephrine pen', type: 'fact' },
      { modelDir: noModel },
    );
    expect(made.vector.state).toBe('pending');
    expect(made.vector.note).toMatch(/found by words now.*chatgraph embed/);
    expect(vectorIds(dataDir)).toEqual([]);
    expect(await memoriesFound(dataDir, 'peanuts', 'keyword')).toEqual([made.memory.id]);
    expect(await memoriesFound(dataDir, 'food allergy', 'semantic')).toEqual([]);

    expect(await embed(dataDir)).toEqual({ memories: 1, embedded: 1 });
    expect(vectorIds(dataDir)).toEqual([made.memory.id]);
    expect(await memoriesFound(dataDir, 'food allergy', 'semantic')).toEqual([made.memory.id]);

    // An edit: the new memory embedded at once, the superseded one's vector gone.
    const edited = await reviseMemory(
      new Folder(dataDir),
      made.memory.id,
      {
        content: 'The user is allergic to peanuts and to shellfish',
      },
      { modelDir: testModelDir() },
    );
    expect(edited.vector.state).toBe('embedded');
    expect(vectorIds(dataDir)).toEqual([edited.memory.id]);
    expect(await memoriesFound(dataDir, 'food allergy', 'semantic')).toEqual([edited.memory.id]);

    // A server lends its search model: embedded with it, though none could be opened here.
    const store = await new Folder(dataDir).openStore({ readonly: true });
    const recaller = createRecaller(store, new Folder(dataDir), { modelDir: testModelDir() });
    try {
      const lent = await remember(
        new Folder(dataDir),
        {
          content: 'Prefers writing command line tools in Rust rather than Go',
          type: 'preference',
        },
        { modelDir: noModel, embedder: () => recaller.embedder() },
      );
      expect(lent.vector.state).toBe('embedded');
      expect(vectorIds(dataDir)).toEqual([edited.memory.id, lent.memory.id].sort());
      const found = await recaller.search({
        text: 'favourite programming language for systems work',
        mode: 'semantic',
      });
      expect(found.memories?.map((m) => m.memory?.id)).toEqual([lent.memory.id]);
    } finally {
      await recaller.close();
      await store.close();
    }
  });
});
