import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../src/mcp/create-server.js';
import { DataFolder } from '../src/index.js';
import type { Store } from '../src/stores/store.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

type CallResult = {
  isError?: boolean;
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
};

describe('MCP tools take ids typed short (the SDK client, in memory)', () => {
  const dir = tempDir();
  const dataDir = join(dir, 'data');
  let store: Store;
  let client: Client;
  let ours = '';
  let messageId = '';

  const call = async (name: string, args: Record<string, unknown>): Promise<CallResult> =>
    (await client.callTool({ name, arguments: args })) as CallResult;

  beforeAll(async () => {
    const file = join(dir, 'two.json');
    writeFileSync(
      file,
      JSON.stringify([
        branchedConversation('shared-prefix-one', 'Forked one'),
        branchedConversation('shared-prefix-two', 'Forked two'),
      ]),
    );
    await importExports(new Folder(dataDir), [file]);
    store = await new Folder(dataDir).openStore({ readonly: true });
    ours = (await store.conversation('shared-prefix-one'))?.id ?? '';
    messageId = (await store.thread(ours))[0]?.id ?? '';
    const server = await createServer(await DataFolder.open(dataDir));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'ids-test', version: '1.0.0' });
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  }, 120_000);

  afterAll(
    cleanUp(async () => {
      await client.close();
      await store.close();
    }),
  );

  it('get_conversation: the start of an id; a shared start names the candidates', async () => {
    const short = await call('get_conversation', { id: ours.slice(0, 8) });
    expect(short.isError).toBeFalsy();
    expect((short.structuredContent?.conversation as { id: string }).id).toBe(ours);
    const shared = await call('get_conversation', { id: 'shared-prefix' });
    expect(shared.isError).toBe(true);
    expect(shared.content[0]?.text).toMatch(
      /^"shared-prefix" starts the ids of 2 conversations: \S+ "Forked one", \S+ "Forked two"; give more characters$/,
    );
    const unknown = await call('get_conversation', { id: 'zzzzzzzzzz' });
    expect(unknown.content[0]?.text).toBe(
      'there is no conversation with id zzzzzzzzzz (nor one starting with it)',
    );
  });

  it('get_message_context: the start of a message’s own id', async () => {
    const part = messageId.slice(messageId.indexOf(':') + 1);
    const found = await call('get_message_context', { message_id: part.slice(0, 8) });
    expect(found.isError, found.content[0]?.text).toBeFalsy();
    expect(found.structuredContent?.messageId).toBe(messageId);
    const missing = await call('get_message_context', { message_id: 'zzzzzzzzzz' });
    expect(missing.isError).toBe(true);
  });

  it('reads the conversation resource by the start of its id', async () => {
    const resource = await client.readResource({
      uri: `chatgraph://conversation/${ours.slice(0, 8)}`,
    });
    expect(JSON.stringify(resource.contents)).toContain('Forked one');
  });

  it('remember takes the start of a conversation id', async () => {
    const made = await call('remember', {
      content: 'from a short id',
      type: 'fact',
      conversation_id: ours.slice(0, 9),
    });
    expect(made.isError, made.content[0]?.text).toBeFalsy();
    expect(JSON.stringify(made.structuredContent)).toContain(ours);
  });
});
