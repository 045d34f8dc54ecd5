import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFolder } from '../src/index.js';
import { StoreConnectionError } from '../src/api/query.js';
import { layoutOf } from '../src/folder/layout.js';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { tempDir } from './support/convert-to-temp.js';

describe('DataFolder', () => {
  it('opened for reading, a folder with nothing imported says so and makes nothing', async () => {
    const dir = join(tempDir(), 'data');
    await expect(DataFolder.open(dir, { readonly: true })).rejects.toThrow(StoreConnectionError);
    await expect(DataFolder.open(dir, { readonly: true })).rejects.toThrow(/nothing is imported/);
    expect(existsSync(dir)).toBe(false);
  });

  it('imports, reads, remembers, forgets, deletes and reindexes through its verbs', async () => {
    const root = tempDir();
    const input = join(root, 'export.zip');
    await writeChatgptExport(input, { seed: 11, conversations: 6 });
    const dir = join(root, 'data');
    const folder = await DataFolder.open(dir);
    try {
      const report = await folder.import([input]);
      expect(report.graph.written).toBe(6);
      expect(existsSync(layoutOf(dir).writeLock)).toBe(true);

      const reader = await DataFolder.open(dir, { readonly: true });
      try {
        const page = await (await reader.store()).listConversations({ limit: 10 });
        expect(page.total).toBe(6);
        // A reading folder still writes memories: each verb opens its own store under the lock.
        const { memory, created } = await reader.remember({
          content: 'prefers tea to coffee',
          type: 'preference',
          method: 'manual',
        });
        expect(created).toBe(true);
        expect((await reader.forget(memory.id)).status).toBe('retracted');

        // The readers the shells use: a conversation's view and its PAM record, memories, recent.
        const shown = page.items[1];
        const view = await reader.view(shown?.id ?? '');
        expect(view?.conversation.id).toBe(shown?.id);
        expect(view?.messages.length).toBeGreaterThan(0);
        const pam = await reader.pamConversation(shown?.id ?? '');
        expect(pam?.id).toBe(shown?.id);
        expect(await reader.view('no-such-conversation')).toBeUndefined();
        expect(
          await reader.pamConversation('3f2a9c1b-0000-4000-8000-000000000000'),
        ).toBeUndefined();
        const kept = await reader.remember({
          content: 'keeps sourdough starter at 24 C',
          type: 'fact',
        });
        expect((await reader.memories({ query: 'sourdough' })).items.map((m) => m.id)).toEqual([
          kept.memory.id,
        ]);
        const recent = await reader.recent({ since: '2000-01-01' });
        expect(recent.memoriesAdded.items.map((m) => m.id)).toContain(kept.memory.id);
        expect(recent.newConversations.total).toBe(6);

        const id = page.items[0]?.id ?? '';
        const deleted = await folder.delete(id);
        expect(deleted).toMatchObject({ id, bundle: true, store: true });
        expect((await folder.tombstones()).map((t) => t.id)).toEqual([id]);
        expect((await (await reader.store()).listConversations({ limit: 10 })).total).toBe(5);

        const again = await folder.reindex();
        expect(again.conversations).toBe(5);
        expect(again.problems).toEqual([]);
      } finally {
        await reader.close();
      }
      // The same export again leaves the deleted conversation out.
      const second = await folder.import([input], { force: true });
      expect(second.graph.written + second.graph.unchanged).toBe(5);
      expect((await (await folder.store()).listConversations({ limit: 10 })).total).toBe(5);
    } finally {
      await folder.close();
      await folder.close();
    }
  }, 120_000);
});
