import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../src/mcp/create-server.js';
import { DataFolder } from '../src/index.js';
import type { Store } from '../src/stores/store.js';
import { layoutOf } from '../src/folder/layout.js';
import type { Recaller } from '../src/api/query.js';
import { createRecaller } from '../src/recall/recaller.js';
import { embedStore } from '../src/recall/embed-store.js';
import { importExports, reindex } from '../src/data-folder/import-exports.js';
import { tempDir } from './support/convert-to-temp.js';
import { testModelDir } from './support/embedding-model.js';
import { embeddingsErrors, memoryStoreErrors } from './support/pam-validator.js';
import { writeExport } from './support/recall-fixtures.js';
import { cleanUp } from './support/clean-up.js';
import { pamValidate } from './support/pam-sdk.js';
import { Folder } from '../src/folder/folder.js';

type CallResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};

interface MemoryHit {
  kind: string;
  conversationId: string;
  messageId: string;
  memory: { id: string };
  why: { keyword?: unknown; semantic?: { similarity: number } };
}

/** The bundle after a step: our Ajv check of both files, and the official validator. */
function expectValidBundle(dataDir: string): void {
  const bundle = layoutOf(dataDir).bundle.dir;
  const read = (file: string): unknown => JSON.parse(readFileSync(join(bundle, file), 'utf8'));
  expect(memoryStoreErrors(read('memory-store.json'))).toEqual([]);
  if (existsSync(join(bundle, 'embeddings.json')))
    expect(embeddingsErrors(read('embeddings.json'))).toEqual([]);
  const { status, output } = pamValidate(bundle);
  expect(status, output).toBe(0);
}

function vectorIds(dataDir: string): string[] {
  const file = JSON.parse(
    readFileSync(join(layoutOf(dataDir).bundle.dir, 'embeddings.json'), 'utf8'),
  ) as {
    embeddings: { memory_id: string }[];
  };
  return file.embeddings.map((e) => e.memory_id).sort();
}

// The "Done when", end to end, with the real model and the SDK's client.
describe('an agent remembers, finds by word and by meaning, forgets; reindex keeps it', () => {
  const dir = tempDir();
  const dataDir = join(dir, 'data');
  let store: Store;
  let recaller: Recaller;
  let client: Client;

  const call = async (name: string, args: Record<string, unknown>): Promise<CallResult> =>
    (await client.callTool({ name, arguments: args })) as CallResult;
  const memoriesFound = async (query: string, mode: string): Promise<MemoryHit[]> => {
    const result = await call('search_conversations', { query, mode });
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    return (result.structuredContent?.memories as MemoryHit[] | undefined) ?? [];
  };

  beforeAll(async () => {
    await importExports(new Folder(dataDir), [writeExport(dir)]);
    const writer = await new Folder(dataDir).openStore();
    await embedStore(new Folder(dataDir), { modelDir: testModelDir() }).finally(() =>
      writer.close(),
    );
    store = await new Folder(dataDir).openStore({ readonly: true });
    recaller = createRecaller(store, new Folder(dataDir), { modelDir: testModelDir() });
    const server = await createServer(await DataFolder.open(dataDir), { recaller });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'memory-meaning-test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  }, 180_000);

  afterAll(
    cleanUp(async () => {
      await client.close();
      await recaller.close();
      await store.close();
    }),
  );

  it('finds a memory by a paraphrase sharing no word, shows its source, forgets it', async () => {
    const conversation = await store.conversation('tomato');
    const source = conversation ? (await store.thread(conversation.id))[0] : undefined;
    if (!conversation || !source) throw new Error('the fixture has no tomato conversation');
    // The SDK client checks each structuredContent against the tool's outputSchema.
    const made = await call('remember', {
      content: 'The user is allergic to peanuts and carries an epinephrine pen',
      type: 'fact',
      conversation_id: 'tomato',
      message_id: source.id,
    });
    expect(made.isError, made.content[0]?.text).toBeFalsy();
    const allergy = String(made.structuredContent?.id);
    expect(made.structuredContent?.vector).toMatchObject({ state: 'embedded' });
    expect(made.content[0]?.text).toMatch(/embedded with .*found by meaning/);
    const rust = await call('remember', {
      content: 'Prefers writing command line tools in Rust rather than Go',
      type: 'preference',
    });
    const preference = String(rust.structuredContent?.id);
    expectValidBundle(dataDir);
    expect(vectorIds(dataDir)).toEqual([allergy, preference].sort());

    // By a word.
    const byWord = await memoriesFound('peanuts', 'keyword');
    expect(byWord.map((m) => [m.kind, m.memory.id])).toEqual([['memory', allergy]]);
    expect(byWord[0]?.why.keyword).toBeDefined();
    // By meaning: no word of the query is in the memory.
    const paraphrase = 'what food allergies do they have';
    const byMeaning = await memoriesFound(paraphrase, 'semantic');
    expect(byMeaning.map((m) => m.memory.id)).toEqual([allergy]);
    expect(byMeaning[0]).toMatchObject({
      kind: 'memory',
      conversationId: conversation.id,
      platformConversationId: 'tomato',
      messageId: source.id,
    });
    expect(byMeaning[0]?.why.keyword).toBeUndefined();
    expect(byMeaning[0]?.why.semantic?.similarity).toBeGreaterThan(0.25);
    // A question about something else lists no memory (nearest is not near enough).
    expect(await memoriesFound('brown spots on tomato leaves', 'semantic')).toEqual([]);
    const text = (await call('search_conversations', { query: paraphrase, mode: 'semantic' }))
      .content[0]?.text;
    expect(text).toMatch(
      new RegExp(
        `memory ${allergy} \\[fact\\] \\(by meaning, similarity 0\\.\\d\\d\\) \\(from conversation ${conversation.id}, message ${source.id}\\)`,
      ),
    );
    // Hybrid (the default once vectors exist) finds it too; the keyword search alone does not.
    expect((await memoriesFound(paraphrase, 'hybrid')).map((m) => m.memory.id)).toEqual([allergy]);
    expect(await memoriesFound(paraphrase, 'keyword')).toEqual([]);
    // Where it came from.
    const listed = await call('list_memories', { query: 'peanuts' });
    expect(listed.content[0]?.text).toContain(`from conversation ${conversation.id}`);
    expect(listed.content[0]?.text).toContain(`message ${source.id}`);

    const forgot = await call('forget', { id: allergy });
    expect(forgot.structuredContent).toMatchObject({ id: allergy, status: 'retracted' });
    expectValidBundle(dataDir);
    expect(vectorIds(dataDir)).toEqual([preference]);
    expect(await memoriesFound(paraphrase, 'semantic')).toEqual([]);
    expect(await memoriesFound('peanuts', 'keyword')).toEqual([]);

    // Reindex: the store from the bundle alone. The memories' vectors come back with it (the
    // messages' wait for the next embed), and the one left is still found by meaning.
    await reindex(new Folder(dataDir));
    expectValidBundle(dataDir);
    expect(await store.memories.vectorModel()).toMatchObject({ count: 1 });
    expect((await store.vectors.model())?.count ?? 0).toBe(0);
    const language = 'favourite programming language for systems work';
    expect((await memoriesFound(language, 'semantic')).map((m) => m.memory.id)).toEqual([
      preference,
    ]);
    expect(await memoriesFound(paraphrase, 'semantic')).toEqual([]);
    expect((await call('list_memories', {})).structuredContent?.total).toBe(1);
  });
});
