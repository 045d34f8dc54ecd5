import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { DataFolder } from '../src/data-folder/data-folder.js';
import type { StoreReader } from '../src/index.js';
import { startWebApp, type WebApp } from '../src/web/web-server.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { FIXED_TIME, tempDir } from './support/convert-to-temp.js';
import { raw } from './support/web-request.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

let dataDir: string;
let store: StoreReader;
let folder: DataFolder;
let app: WebApp;
let ours = '';

beforeAll(async () => {
  const dir = tempDir();
  dataDir = join(dir, 'data');
  const file = join(dir, 'two.json');
  writeFileSync(
    file,
    JSON.stringify([
      branchedConversation('shared-prefix-one', 'Forked one'),
      branchedConversation('shared-prefix-two', 'Forked two'),
    ]),
  );
  await importExports(new Folder(dataDir), [file], { importedAt: FIXED_TIME });
  folder = await DataFolder.open(dataDir);
  store = await folder.reader();
  ours = (await store.conversation('shared-prefix-one'))?.id ?? '';
  app = await startWebApp({ folder, port: 0 });
});

afterAll(
  cleanUp(async () => {
    await app.close();
    await folder.close();
  }),
);

const error = (body: string): string => (JSON.parse(body) as { error: string }).error;

describe('the web app takes ids typed short', () => {
  it('answers a conversation, and its graph, for the start of its id', async () => {
    const page = await raw(app, `/api/conversations/${ours.slice(0, 8)}`);
    expect(page.status, page.body).toBe(200);
    expect((JSON.parse(page.body) as { conversation: { id: string } }).conversation.id).toBe(ours);
    const platform = await raw(app, '/api/conversations/shared-prefix-two');
    expect(platform.status).toBe(200);
    expect((await raw(app, `/api/graph/${ours.slice(0, 10)}`)).status).toBe(200);
  });

  it('answers 409 naming the candidates for a shared start, 404 for an unknown or short one', async () => {
    const shared = await raw(app, '/api/conversations/shared-prefix');
    expect(shared.status).toBe(409);
    expect(error(shared.body)).toMatch(
      /^"shared-prefix" starts the ids of 2 conversations: \S+ "Forked one", \S+ "Forked two"; give more characters$/,
    );
    const unknown = await raw(app, '/api/conversations/zzzzzzzzzz');
    expect(unknown.status).toBe(404);
    expect(error(unknown.body)).toBe(
      'there is no conversation with id zzzzzzzzzz (nor one starting with it)',
    );
    const short = await raw(app, '/api/conversations/shar');
    expect(short.status).toBe(404);
    expect(error(short.body)).toMatch(/8 characters at least/);
    expect((await raw(app, '/api/graph/shared-prefix')).status).toBe(409);
  });

  it('refuses to delete by a shared start (409), and deletes by a unique one', async () => {
    const refused = await raw(app, '/api/conversations/shared-prefix', { method: 'DELETE' });
    expect(refused.status).toBe(409);
    expect(await store.conversationCount()).toBe(2);
    const deleted = await raw(app, '/api/conversations/shared-prefix-t', { method: 'DELETE' });
    expect(deleted.status, deleted.body).toBe(200);
    expect(await store.conversation('shared-prefix-two')).toBeUndefined();
    expect(await store.conversation('shared-prefix-one')).toBeDefined();
  });
});
