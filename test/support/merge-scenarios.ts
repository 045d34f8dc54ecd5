import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { contentHashOfText } from '../../src/bundle/conversation-text.js';
import type { ImportResult } from '../../src/data-folder/import-exports.js';
import type { Conversation } from '../../src/model/pam.js';
import type { Store } from '../../src/stores/store.js';
import { msg, node } from './chatgpt-builder.js';
import { pamValidate } from './pam-sdk.js';

/**
 * Two exports of one ChatGPT account for the merge of copies (issue 23, break 1): `newer.json`
 * and `older.json`, the older one written earlier by the platform (earlier `update_time`).
 * - `trip`: the older copy has an answer the newer lacks (regenerated away), under the first
 *   prompt, and an older title; the newer goes on past it.
 * - `shrunk`: the older copy is the first half of the newer one.
 * - `gap`: the newer copy lacks a message (its child's parent is missing); the older has it.
 * - `fresh`: only in the older export.
 */
export function writeChatgptCopies(dir: string): { newer: string; older: string } {
  const chain = (
    id: string,
    title: string,
    update: number,
    messages: [key: string, role: string, text: string, parent: string | null][],
    current: string,
  ) => {
    const mapping: Record<string, unknown> = { root: node('root', null, [], null) };
    for (const [key, role, text, parent] of messages) {
      const children = messages.filter((m) => m[3] === key).map((m) => m[0]);
      const at = 1_700_000_000 + Object.keys(mapping).length;
      mapping[key] = node(key, parent ?? 'root', children, msg(key, role, text, at));
    }
    (mapping.root as { children: string[] }).children = messages
      .filter((m) => m[3] === null)
      .map((m) => m[0]);
    return {
      id,
      conversation_id: id,
      title,
      create_time: 1_700_000_000,
      update_time: update,
      current_node: current,
      mapping,
    };
  };
  const newer = [
    chain(
      'trip',
      'Trip plan (final)',
      1_700_000_900,
      [
        ['u1', 'user', 'plan a trip', null],
        ['a1', 'assistant', 'go to the coast', 'u1'],
        ['u2', 'user', 'and then?', 'a1'],
        ['a2', 'assistant', 'watch the quetzal', 'u2'],
      ],
      'a2',
    ),
    chain(
      'shrunk',
      'Shrunk',
      1_700_000_900,
      [
        ['s1', 'user', 'name an animal', null],
        ['s2', 'assistant', 'a capybara', 's1'],
        ['s3', 'user', 'another one', 's2'],
        ['s4', 'assistant', 'an okapi', 's3'],
      ],
      's4',
    ),
    chain(
      'gap',
      'Gap',
      1_700_000_900,
      [
        ['g1', 'user', 'first question', null],
        // Its parent g2 is not in this export.
        ['g3', 'user', 'a follow-up', 'g2'],
        ['g4', 'assistant', 'the final word', 'g3'],
      ],
      'g4',
    ),
  ];
  const older = [
    chain(
      'trip',
      'Trip plan',
      1_700_000_300,
      [
        ['u1', 'user', 'plan a trip', null],
        ['a1', 'assistant', 'go to the coast', 'u1'],
        ['a1x', 'assistant', 'sail to zanzibar', 'u1'],
      ],
      'a1x',
    ),
    chain(
      'shrunk',
      'Shrunk',
      1_700_000_300,
      [
        ['s1', 'user', 'name an animal', null],
        ['s2', 'assistant', 'a capybara', 's1'],
      ],
      's2',
    ),
    chain(
      'gap',
      'Gap',
      1_700_000_300,
      [
        ['g1', 'user', 'first question', null],
        ['g2', 'assistant', 'the middle answer', 'g1'],
        ['g3', 'user', 'a follow-up', 'g2'],
      ],
      'g3',
    ),
    chain('fresh', 'Fresh', 1_700_000_300, [['f1', 'user', 'only in the old export', null]], 'f1'),
  ];
  const paths = { newer: join(dir, 'newer.json'), older: join(dir, 'older.json') };
  writeFileSync(paths.newer, JSON.stringify(newer));
  writeFileSync(paths.older, JSON.stringify(older));
  return paths;
}

/** What the store must hold once both exports of {@link writeChatgptCopies} were imported, in any order. */
export async function expectMerged(store: Store): Promise<void> {
  const shown = async (id: string) => (await store.thread(id)).map((m) => m.content);
  const all = async (id: string) =>
    (await store.thread(id, { allBranches: true })).map((m) => m.content);
  expect((await store.conversation('trip'))?.name).toBe('Trip plan (final)');
  expect(await shown('trip')).toEqual([
    'plan a trip',
    'go to the coast',
    'and then?',
    'watch the quetzal',
  ]);
  expect((await all('trip')).sort()).toEqual(
    ['plan a trip', 'go to the coast', 'sail to zanzibar', 'and then?', 'watch the quetzal'].sort(),
  );
  expect(await shown('shrunk')).toEqual([
    'name an animal',
    'a capybara',
    'another one',
    'an okapi',
  ]);
  // The message the newer copy lacked puts its child back in the thread.
  expect(await shown('gap')).toEqual([
    'first question',
    'the middle answer',
    'a follow-up',
    'the final word',
  ]);
  expect(await shown('fresh')).toEqual(['only in the old export']);
  for (const [word, id] of [
    ['zanzibar', 'trip'],
    ['quetzal', 'trip'],
    ['okapi', 'shrunk'],
    ['middle', 'gap'],
    ['final', 'gap'],
  ] as const) {
    const { hits } = await store.search({ text: word, mode: 'keyword' });
    expect(
      hits.map((h) => h.platformConversationId),
      word,
    ).toEqual([id]);
  }
  const counts = await store.counts();
  expect(counts.nodes).toMatchObject({ Conversation: 4, Message: 5 + 4 + 4 + 1 });
}

/** The bundle's conversations by platform id, import metadata left out. */
export function bundleConversations(data: string): Map<string, Conversation> {
  const dir = join(data, 'bundle', 'conversations');
  const out = new Map<string, Conversation>();
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const { import_metadata: _meta, ...content } = JSON.parse(
      readFileSync(join(dir, name), 'utf8'),
    ) as Conversation;
    out.set(content.provider.conversation_id ?? content.id, content);
  }
  return out;
}

/** The content hash of each bundle file (import metadata aside), by file name. */
export function bundleHashes(data: string): Record<string, string> {
  const dir = join(data, 'bundle', 'conversations');
  return Object.fromEntries(
    readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()
      .map((n) => [n, contentHashOfText(readFileSync(join(dir, n), 'utf8'))]),
  );
}

/** Every message's parent is in the conversation and lists it among its children, and back. */
export function expectValidTree(conversation: Conversation): void {
  const byId = new Map(conversation.messages.map((m) => [m.id, m]));
  expect(byId.size).toBe(conversation.messages.length);
  for (const message of conversation.messages) {
    if (message.parent_id !== null)
      expect(byId.get(message.parent_id)?.children_ids, conversation.title ?? '').toContain(
        message.id,
      );
    for (const child of message.children_ids) expect(byId.get(child)?.parent_id).toBe(message.id);
  }
}

/** Runs the official PAM validator on a data folder's bundle; expects it to accept it. */
export function expectPamValid(data: string): void {
  const { status, output } = pamValidate(join(data, 'bundle'));
  expect(output).toMatch(/\b0 invalid\b/);
  expect(status, output).toBe(0);
}

/** The import's written counts and kept-newer total, for one assertion. */
export function outcome(result: ImportResult): Record<string, number> {
  return { ...result.written, keptNewer: result.totals.keptNewer };
}

/** A Claude Code log line: entry `n` (user when even) with `text`, at second `n`, after `parent`. */
export function sessionLine(
  sessionId: string,
  n: number,
  text: string,
  parent: number | null,
): string {
  const role = n % 2 === 0 ? 'user' : 'assistant';
  const uuid = `${sessionId}-${n}`;
  return `${JSON.stringify({
    type: role,
    uuid,
    parentUuid: parent === null ? null : `${sessionId}-${parent}`,
    sessionId,
    timestamp: new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
    cwd: '/work/app',
    message:
      role === 'assistant'
        ? { id: `msg-${uuid}`, role, model: 'claude-sonnet-4', content: [{ type: 'text', text }] }
        : { role, content: text },
  })}\n`;
}

/** The session of {@link SHORTER_LOG}: four entries in a chain. */
export const FULL_LOG = [
  sessionLine('sess-cut', 0, 'plan the aardvark trip', null),
  sessionLine('sess-cut', 1, 'pack for the bison', 0),
  sessionLine('sess-cut', 2, 'and the condor?', 1),
  sessionLine('sess-cut', 3, 'watch the dingo', 2),
];

/** The log cut short to its first two entries, then going on another way (a later entry). */
export const SHORTER_LOG = [...FULL_LOG.slice(0, 2), sessionLine('sess-cut', 5, 'see the emu', 1)];

/** The texts of the session once both logs were read: none lost, the new one added. */
export const MERGED_LOG_TEXTS = [
  'plan the aardvark trip',
  'pack for the bison',
  'and the condor?',
  'watch the dingo',
  'see the emu',
];

/** What the store must hold of the session once the full and the shorter log were read. */
export async function expectLogMerged(store: Store): Promise<void> {
  const all = (await store.thread('sess-cut', { allBranches: true })).map((m) => m.content);
  expect([...all].sort()).toEqual([...MERGED_LOG_TEXTS].sort());
  for (const word of ['dingo', 'condor', 'emu']) {
    const { hits } = await store.search({ text: word, mode: 'keyword' });
    expect(
      hits.map((h) => h.platformConversationId),
      word,
    ).toEqual(['sess-cut']);
  }
  // The later entry leads: the shown thread ends on it.
  expect((await store.thread('sess-cut')).map((m) => m.content)).toEqual([
    'plan the aardvark trip',
    'pack for the bison',
    'see the emu',
  ]);
}

/** The bundle's copy of the session holds every entry, its tree whole. */
export function expectLogMergedInBundle(data: string): void {
  const conversation = bundleConversations(data).get('sess-cut');
  expect(conversation?.messages.map((m) => m.content?.text).sort()).toEqual(
    [...MERGED_LOG_TEXTS].sort(),
  );
  if (conversation) expectValidTree(conversation);
}
