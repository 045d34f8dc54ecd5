import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../src/cli/format-report.js';
import { layoutOf } from '../src/folder/layout.js';
import { importExports } from '../src/data-folder/import-exports.js';
import type { Conversation } from '../src/model/pam.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { FIXED_TIME, tempDir } from './support/convert-to-temp.js';
import {
  bundleConversations,
  bundleHashes,
  expectMerged,
  expectPamValid,
  expectValidTree,
  outcome,
  writeChatgptCopies,
} from './support/merge-scenarios.js';
import { graphOf } from './support/session-log.js';
import { Folder } from '../src/folder/folder.js';

async function withStore<T>(data: string, use: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

describe('an older export after a newer one (issue 23, break 1)', () => {
  it('keeps the newer copy, merges in the messages only the older had, and says so', async () => {
    const dir = tempDir();
    const { newer, older } = writeChatgptCopies(dir);
    const data = join(dir, 'data');
    const first = await importExports(new Folder(data), [newer], { importedAt: FIXED_TIME });
    expect(outcome(first)).toMatchObject({ created: 3, updated: 0, keptNewer: 0 });
    expectPamValid(data);

    const second = await importExports(new Folder(data), [older], { importedAt: FIXED_TIME });
    // trip and gap gain the older copy's messages; shrunk stays as it was; fresh is new.
    expect(outcome(second)).toEqual({
      created: 1,
      updated: 2,
      unchanged: 1,
      duplicates: 0,
      keptNewer: 3,
    });
    expect(second.providers.chatgpt?.keptNewer).toBe(3);
    expect(second.problems.find((p) => p.code === 'kept-newer-copy')?.count).toBe(3);
    expect(formatReport(second)).toContain(
      '1 written, 2 updated, 1 unchanged, 0 duplicates across files; kept the newer copy of 3 conversations',
    );
    expectPamValid(data);
    await withStore(data, expectMerged);
    const bundle = bundleConversations(data);
    for (const conversation of bundle.values()) expectValidTree(conversation);
    expect(bundle.get('trip')?.title).toBe('Trip plan (final)');
    expect(bundle.get('trip')?.messages).toHaveLength(5);
    expect(bundle.get('shrunk')?.messages).toHaveLength(4);
    // The bundle's index agrees with the files.
    const index = (
      JSON.parse(readFileSync(join(data, 'bundle', 'memory-store.json'), 'utf8')) as {
        conversations_index: { title: string; message_count: number }[];
      }
    ).conversations_index;
    expect(index.map((e) => [e.title, e.message_count]).sort()).toEqual(
      [
        ['Fresh', 1],
        ['Gap', 4],
        ['Shrunk', 4],
        ['Trip plan (final)', 5],
      ].sort(),
    );

    // Read again (forced), either export changes nothing.
    const hashes = bundleHashes(data);
    const graph = await graphOf(data);
    for (const input of [older, newer]) {
      const again = await importExports(new Folder(data), [input], { force: true });
      expect(again.written).toMatchObject({ created: 0, updated: 0 });
      expect(again.graph.written).toBe(0);
      expect(bundleHashes(data)).toEqual(hashes);
      expect(await graphOf(data)).toEqual(graph);
      expectPamValid(data);
    }
    expect(formatReport(await importExports(new Folder(data), [older], { force: true }))).toContain(
      'kept the newer copy of 3 conversations',
    );
  });

  it('gives the same content whichever export comes first, or both in one command', async () => {
    const dir = tempDir();
    const { newer, older } = writeChatgptCopies(dir);
    const results: Record<string, string>[] = [];
    for (const [name, steps] of [
      ['newer-then-older', [[newer], [older]]],
      ['older-then-newer', [[older], [newer]]],
      ['one-command', [[older, newer]]],
      ['one-command-reversed', [[newer, older]]],
    ] as const) {
      const data = join(dir, name);
      for (const inputs of steps) {
        await importExports(new Folder(data), [...inputs], { importedAt: FIXED_TIME });
        expectPamValid(data);
      }
      await withStore(data, expectMerged);
      results.push(bundleHashes(data));
    }
    for (const result of results.slice(1)) expect(result).toEqual(results[0]);
  });

  it('a newer export after an older one says no "kept" and merges the same', async () => {
    const dir = tempDir();
    const { newer, older } = writeChatgptCopies(dir);
    const data = join(dir, 'data');
    await importExports(new Folder(data), [older]);
    const second = await importExports(new Folder(data), [newer]);
    expect(outcome(second)).toMatchObject({ created: 0, updated: 3, keptNewer: 0 });
    expect(formatReport(second)).not.toContain('kept the newer copy');
  });

  it('keeps the later copy whole where message ids are positions (no message twice)', async () => {
    const dir = tempDir();
    // Claude.ai messages without a uuid get ids from their position: not merged by id.
    const claude = (updated: string, texts: string[]) => [
      {
        uuid: 'c-1',
        name: 'Positions',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: updated,
        chat_messages: texts.map((text, i) => ({
          sender: i % 2 === 0 ? 'human' : 'assistant',
          text,
          created_at: `2026-01-01T00:00:0${i}Z`,
        })),
      },
    ];
    const newer = join(dir, 'newer', 'conversations.json');
    const older = join(dir, 'older', 'conversations.json');
    mkdirSync(join(dir, 'newer'));
    mkdirSync(join(dir, 'older'));
    writeFileSync(newer, JSON.stringify(claude('2026-01-03T00:00:00Z', ['q', 'b', 'c', 'd'])));
    writeFileSync(older, JSON.stringify(claude('2026-01-02T00:00:00Z', ['q', 'x', 'y'])));
    for (const order of [
      [newer, older],
      [older, newer],
    ]) {
      const data = join(dir, `data-${order[0] === newer ? 'n' : 'o'}`);
      for (const input of order) await importExports(new Folder(data), [input]);
      const [conversation] = bundleConversations(data).values();
      expect(conversation?.messages.map((m) => m.content?.text)).toEqual(['q', 'b', 'c', 'd']);
      await withStore(data, async (store) => {
        expect((await store.counts()).nodes.Message).toBe(4);
      });
      expectPamValid(data);
    }
  });

  it('an export read again (forced) repairs a damaged bundle copy of the same time and size', async () => {
    const data = join(tempDir(), 'data');
    const input = join('test', 'fixtures', 'claude-ai', 'legacy-2024-flat.json');
    await importExports(new Folder(data), [input]);
    const dir = join(data, 'bundle', 'conversations');
    const [name] = readdirSync(dir).filter((n) => n.endsWith('.json'));
    const file = join(dir, name ?? '');
    const damaged = JSON.parse(readFileSync(file, 'utf8')) as Conversation;
    const message = damaged.messages.find((m) => m.content?.text);
    const original = message?.content?.text;
    if (!message?.content || original === undefined) throw new Error('the fixture has no text');
    // What an earlier converter might have written: same time, same messages, other text.
    message.content.text = 'zz stale text of an older converter';
    writeFileSync(file, JSON.stringify(damaged, null, 2));
    const again = await importExports(new Folder(data), [input], { force: true });
    expect(outcome(again)).toMatchObject({ updated: 1, keptNewer: 0 });
    const repaired = JSON.parse(readFileSync(file, 'utf8')) as Conversation;
    expect(repaired.messages.find((m) => m.id === message.id)?.content?.text).toBe(original);
    await withStore(data, async (store) => {
      const thread = await store.thread(repaired.id, { allBranches: true });
      const texts = thread.map((m) => m.content);
      expect(texts).toContain(original);
      expect(texts).not.toContain('zz stale text of an older converter');
    });
  });

  it('keeps each attachment text on its own message when two copies each add one', async () => {
    const dir = tempDir();
    // Both copies paste a file of the same name on a message the other lacks (the paths are
    // numbered by position within each copy, so both name it 1-notes.txt).
    const claude = (updated: string, messages: [string, string, string | null][]) => [
      {
        uuid: 'conv-paste',
        name: 'Pastes',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: updated,
        chat_messages: messages.map(([uuid, text, pasted], i) => ({
          uuid,
          parent_message_uuid: i === 0 ? undefined : messages[0]?.[0],
          text,
          sender: i === 0 ? 'human' : 'assistant',
          created_at: `2026-01-01T00:00:0${i}Z`,
          attachments:
            pasted === null
              ? []
              : [{ file_name: 'notes.txt', file_type: 'text/plain', extracted_content: pasted }],
          files: [],
        })),
      },
    ];
    const newer = join(dir, 'newer.json');
    const older = join(dir, 'older.json');
    writeFileSync(
      newer,
      JSON.stringify(
        claude('2026-01-03T00:00:00Z', [
          ['m-0', 'start', null],
          ['m-new', 'newer answer', 'the newer notes'],
        ]),
      ),
    );
    writeFileSync(
      older,
      JSON.stringify(
        claude('2026-01-02T00:00:00Z', [
          ['m-0', 'start', null],
          ['m-old', 'older answer', 'the older notes'],
        ]),
      ),
    );
    const results: Record<string, string>[] = [];
    for (const order of [
      [newer, older],
      [older, newer],
    ]) {
      const data = join(dir, order[0] === newer ? 'data-n' : 'data-o');
      for (const input of order) await importExports(new Folder(data), [input]);
      const [conversation] = bundleConversations(data).values();
      const pasted = (text: string): string | undefined => {
        const ref = conversation?.messages.find((m) => m.content?.text === text)?.attachments[0]
          ?.ref;
        return ref ? readFileSync(join(data, 'bundle', ref), 'utf8') : undefined;
      };
      expect(pasted('newer answer')).toBe('the newer notes');
      expect(pasted('older answer')).toBe('the older notes');
      expectPamValid(data);
      // Read again, either export changes nothing; both orders give the same bundle.
      const hashes = bundleHashes(data);
      for (const input of order) await importExports(new Folder(data), [input], { force: true });
      expect(bundleHashes(data)).toEqual(hashes);
      results.push(hashes);
    }
    expect(results[1]).toEqual(results[0]);
  });
});
