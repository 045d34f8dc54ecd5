import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../src/mcp/create-server.js';
import { DataFolder } from '../src/index.js';
import type { Store } from '../src/stores/store.js';
import { layoutOf } from '../src/folder/layout.js';
import { importExports, reindex } from '../src/data-folder/import-exports.js';
import { readMemoryStore } from '../src/bundle/read-memory-store.js';
import { tempDir } from './support/convert-to-temp.js';
import { memoryStoreErrors } from './support/pam-validator.js';
import { ROOT } from './support/shared.js';
import { cleanUp } from './support/clean-up.js';
import { pamValidate } from './support/pam-sdk.js';
import { Folder } from '../src/folder/folder.js';
import { bundleAt } from './support/bundle-at.js';

type CallResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};

function expectValidBundle(dataDir: string): void {
  const bundle = layoutOf(dataDir).bundle.dir;
  const json = JSON.parse(readFileSync(join(bundle, 'memory-store.json'), 'utf8')) as unknown;
  expect(memoryStoreErrors(json)).toEqual([]);
  const { status, output } = pamValidate(bundle);
  expect(status, output).toBe(0);
}

describe('memory tools over MCP (the SDK client, in memory)', () => {
  const dataDir = join(tempDir(), 'data');
  let store: Store;
  let client: Client;
  let conversation: { id: string; platformId: string };
  let messageId: string;

  const call = async (name: string, args: Record<string, unknown>): Promise<CallResult> =>
    (await client.callTool({ name, arguments: args })) as CallResult;

  beforeAll(async () => {
    await importExports(new Folder(dataDir), [join(ROOT, 'samples', 'chatgpt-export.zip')]);
    store = await new Folder(dataDir).openStore({ readonly: true });
    const page = await store.listConversations({ sort: 'oldest', limit: 1 });
    conversation = page.items[0] ?? { id: '', platformId: '' };
    messageId = (await store.thread(conversation.id))[0]?.id ?? '';
    const server = await createServer(await DataFolder.open(dataDir));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'memory-test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  }, 120_000);

  afterAll(
    cleanUp(async () => {
      await client.close();
      await store.close();
    }),
  );

  it('declares every memory tool with an output schema and described parameters', async () => {
    const { tools } = await client.listTools();
    for (const name of ['remember', 'forget', 'list_memories', 'recent_activity']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.outputSchema?.type, name).toBe('object');
      const properties = tool?.inputSchema.properties as Record<string, { description?: string }>;
      for (const [param, schema] of Object.entries(properties))
        expect(schema.description, `${name}.${param}`).toBeTruthy();
    }
    const remember = tools.find((t) => t.name === 'remember');
    const type = (remember?.inputSchema.properties as Record<string, { enum?: string[] }>).type;
    expect(type?.enum).toContain('preference');
    expect(type?.enum).toHaveLength(11);
  });

  it('remembers, finds by a word, shows the source, forgets, and reindex keeps it all', async () => {
    // The SDK client checks each structuredContent against the tool's outputSchema.
    const made = await call('remember', {
      content: 'The user is training for the Lisbon half marathon in March',
      type: 'goal',
      tags: ['running'],
      confidence: 0.9,
      conversation_id: conversation.platformId,
      message_id: messageId,
    });
    expect(made.isError, made.content[0]?.text).toBeFalsy();
    const id = String(made.structuredContent?.id);
    expect(made.structuredContent?.memory).toMatchObject({
      type: 'goal',
      extractionMethod: 'llm_inference',
      source: { conversationId: conversation.id, messageId },
    });
    expectValidBundle(dataDir);

    const listed = await call('list_memories', { query: 'lisbon', limit: 5 });
    expect(listed.structuredContent).toMatchObject({ total: 1, nextOffset: null });
    expect(listed.content[0]?.text).toContain(`message ${messageId}`);
    expect(listed.content[0]?.text).toContain('**Lisbon**');

    const search = await call('search_conversations', {
      query: 'lisbon marathon',
      mode: 'keyword',
    });
    const memories = search.structuredContent?.memories as {
      kind: string;
      memory: { id: string };
    }[];
    expect(memories.map((m) => [m.kind, m.memory.id])).toEqual([['memory', id]]);
    expect(search.content[0]?.text).toContain(`memory ${id} [goal]`);

    const recent = await call('recent_activity', { since: '7d' });
    const added = recent.structuredContent?.memoriesAdded as { items: { id: string }[] };
    expect(added.items.map((m) => m.id)).toEqual([id]);

    await reindex(new Folder(dataDir));
    expect((await call('list_memories', { query: 'lisbon' })).structuredContent?.total).toBe(1);
    const edge = await store.cypher(
      'MATCH (m:Memory {id: $id})-[:DERIVED_FROM]->(x:Message) RETURN x.id AS id',
      { id },
    );
    expect(edge).toEqual([{ id: messageId }]);

    const forgot = await call('forget', { id });
    expect(forgot.structuredContent).toMatchObject({ id, status: 'retracted' });
    expectValidBundle(dataDir);
    expect((await call('list_memories', { query: 'lisbon' })).structuredContent?.total).toBe(0);
    const after = await call('search_conversations', { query: 'lisbon', mode: 'keyword' });
    expect(after.structuredContent?.memories).toBeUndefined();
  });

  it('relates a new memory to others (relations), walked by Cypher; an unknown one refused', async () => {
    const first = await call('remember', { content: 'The user runs 40 km a week', type: 'fact' });
    const base = String(first.structuredContent?.id);
    const made = await call('remember', {
      content: 'The user adds a long run on Sundays',
      type: 'fact',
      relations: [{ type: 'extends', to: base.slice(0, 8) }],
    });
    expect(made.isError, made.content[0]?.text).toBeFalsy();
    const id = String(made.structuredContent?.id);
    const relations =
      (await readMemoryStore(bundleAt(layoutOf(dataDir).bundle.dir)))?.relations ?? [];
    expect(relations.map((r) => [r.from, r.type, r.to])).toEqual([[id, 'extends', base]]);
    const walked = await store.cypher(
      'MATCH (m:Memory {id: $id})-[:EXTENDS]->(b:Memory) RETURN b.content AS content',
      { id },
    );
    expect(walked).toEqual([{ content: 'The user runs 40 km a week' }]);
    const unknown = await call('remember', {
      content: 'The user tapers in March',
      type: 'fact',
      relations: [{ type: 'supports', to: 'no-such-memory' }],
    });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]?.text).toContain('there is no memory with id no-such-memory');
  });

  it('answers bad input as a tool error in a plain sentence', async () => {
    const unknown = await call('forget', { id: 'nope' });
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.content[0]?.text).toBe('there is no memory with id nope');
    const noConversation = await call('remember', {
      content: 'x',
      type: 'fact',
      conversation_id: 'nope',
    });
    expect(noConversation.content[0]?.text).toBe(
      'there is no conversation with id nope (the start of an id needs 8 characters at least)',
    );
    const date = await call('recent_activity', { since: 'whenever' });
    expect(date.isError).toBe(true);
    expect(date.content[0]?.text).toMatch(/^since takes .*7d.*"whenever"$/);
    const type = await call('remember', { content: 'x', type: 'opinion' });
    expect(type.isError).toBe(true);
  });

  it('refuses a memory over the one content limit every shell has, naming it', async () => {
    const huge = await call('remember', { content: 'a'.repeat(9 * 1024 * 1024), type: 'fact' });
    expect(huge).toMatchObject({ isError: true });
    expect(huge.content[0]?.text).toMatch(
      /^a memory is at most 20,000 characters and this one has 9,437,184/,
    );
    const over = await call('remember', { content: 'b'.repeat(20_001), type: 'fact' });
    expect(over.isError).toBe(true);
    const at = await call('remember', { content: 'c'.repeat(20_000), type: 'fact' });
    expect(at.isError).toBeFalsy();
  });
});
