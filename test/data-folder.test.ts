import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFolder } from '../src/index.js';
import { StoreConnectionError } from '../src/api/query.js';
import { FolderEncryptionError } from '../src/api/trust.js';
import { layoutOf } from '../src/folder/layout.js';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { msg, node } from './support/chatgpt-builder.js';
import { wordsFound } from './support/encrypted-folder.js';
import { tempDir } from './support/convert-to-temp.js';

/** A one-conversation ChatGPT export whose question holds `word`. */
function exportWith(dir: string, word: string): string {
  const file = join(dir, `${word}.json`);
  const conversation = {
    id: `conv-${word}`,
    conversation_id: `conv-${word}`,
    title: `About ${word}`,
    create_time: 1_700_000_000,
    update_time: 1_700_000_100,
    current_node: 'a',
    mapping: {
      root: node('root', null, ['u'], null),
      u: node('u', 'root', ['a'], msg('u', 'user', `what is a ${word}?`, 1_700_000_001)),
      a: node('a', 'u', [], msg('a', 'assistant', `a ${word} is rare`, 1_700_000_002)),
    },
  };
  writeFileSync(file, JSON.stringify([conversation]));
  return file;
}

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
        const page = await (await reader.reader()).listConversations({ limit: 10 });
        expect(page.total).toBe(6);
        // A reading folder still writes memories: each verb opens its own store under the lock.
        const { memory, created } = await reader.remember({
          content: 'prefers tea to coffee',
          type: 'preference',
          method: 'manual',
        });
        expect(created).toBe(true);
        expect((await reader.forget(memory.id)).memory.status).toBe('retracted');

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
        expect((await (await reader.reader()).listConversations({ limit: 10 })).total).toBe(5);

        const again = await folder.reindex();
        expect(again.conversations).toBe(5);
        expect(again.problems).toEqual([]);
      } finally {
        await reader.close();
      }
      // The same export again leaves the deleted conversation out.
      const second = await folder.import([input], { force: true });
      expect(second.graph.written + second.graph.unchanged).toBe(5);
      expect((await (await folder.reader()).listConversations({ limit: 10 })).total).toBe(5);
    } finally {
      await folder.close();
      await folder.close();
    }
  }, 120_000);

  it('opens two encrypted folders side by side, each with its own passphrase, and searches each', async () => {
    const root = tempDir();
    const folders = [
      { dir: join(root, 'a'), word: 'quillwort', passphrase: 'first folder passphrase' },
      { dir: join(root, 'b'), word: 'sandpiper', passphrase: 'second folder passphrase' },
    ];
    for (const { dir, word, passphrase } of folders) {
      const made = await DataFolder.open(dir);
      await made.encrypt({ passphrase });
      await made.import([exportWith(root, word)]);
      await made.close();
      expect(wordsFound(dir, [word])).toEqual([]);
    }
    // Each folder asks for its own secret, once, when its key is first needed.
    const asked: string[] = [];
    const unlockWith = (passphrase: string) => (dir: string) => {
      asked.push(dir);
      return Promise.resolve({ passphrase });
    };
    const [a, b] = await Promise.all(
      folders.map(({ dir, passphrase }) =>
        DataFolder.open(dir, { unlock: unlockWith(passphrase), readonly: true }),
      ),
    );
    if (!a || !b) throw new Error('both folders open');
    try {
      const [inA, inB] = await Promise.all([
        a.search({ text: 'quillwort', mode: 'keyword' }),
        b.search({ text: 'sandpiper', mode: 'keyword' }),
      ]);
      expect(inA.hits.map((h) => h.title)).toContain('About quillwort');
      expect(inB.hits.map((h) => h.title)).toContain('About sandpiper');
      // Neither sees the other's words: each reads its own index with its own key.
      expect((await a.search({ text: 'sandpiper', mode: 'keyword' })).hits).toEqual([]);
      expect((await b.search({ text: 'quillwort', mode: 'keyword' })).hits).toEqual([]);
      // And each writes sealed with its own key, side by side.
      await Promise.all([
        a.remember({ content: 'quillwort grows under water', type: 'fact' }),
        b.remember({ content: 'sandpipers run along the tide', type: 'fact' }),
      ]);
      expect((await a.memories({ query: 'quillwort' })).total).toBe(1);
      expect((await b.memories({ query: 'quillwort' })).total).toBe(0);
      expect(asked.sort()).toEqual(folders.map((f) => f.dir).sort());
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    // The wrong folder's passphrase does not open the other.
    const wrong = await DataFolder.open(folders[0]?.dir ?? '', {
      unlock: unlockWith('second folder passphrase'),
    });
    await expect(wrong.search({ text: 'quillwort', mode: 'keyword' })).rejects.toThrow(
      FolderEncryptionError,
    );
    // And a folder opened with no way to ask says so, naming it.
    const locked = await DataFolder.open(folders[1]?.dir ?? '');
    await expect(locked.search({ text: 'sandpiper', mode: 'keyword' })).rejects.toThrow(
      /is encrypted, and nothing here can ask for its key/,
    );
  }, 180_000);

  it('searches in the mode asked: by words, and by meaning only when the folder has vectors', async () => {
    const root = tempDir();
    const folder = await DataFolder.open(join(root, 'data'));
    try {
      await folder.import([exportWith(root, 'marmoset')]);
      const words = await folder.search({ text: 'marmoset', mode: 'keyword' });
      expect(words.mode).toBe('keyword');
      expect(words.hits.length).toBeGreaterThan(0);
      // Never embedded: a search by meaning cannot run, and says what would make it.
      await expect(folder.search({ text: 'a small monkey', mode: 'semantic' })).rejects.toThrow(
        /embed/,
      );
      // No mode: by words, and the result says why.
      const either = await folder.search({ text: 'marmoset' });
      expect(either.mode).toBe('keyword');
    } finally {
      await folder.close();
    }
  }, 120_000);

  it('gives the shells a reader with no write path, not the store', async () => {
    const root = tempDir();
    const folder = await DataFolder.open(join(root, 'data'));
    try {
      await folder.import([exportWith(root, 'okapi')]);
      const reader = await folder.reader();
      const members = Object.keys(reader).sort();
      for (const write of ['clear', 'upsert', 'writer', 'deleteConversation', 'setDeep', 'close'])
        expect(members).not.toContain(write);
      expect(members).not.toContain('vectors');
      expect(members).not.toContain('memories');
      expect((await reader.listConversations({ limit: 5 })).total).toBe(1);
      expect(await reader.conversationCount()).toBe(1);
    } finally {
      await folder.close();
    }
  }, 120_000);
});
