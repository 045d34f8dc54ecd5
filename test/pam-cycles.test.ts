import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Conversation } from '../src/model/pam.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph } from './support/run-cli.js';

// Issue 41, point 20 (its first half): a PAM conversation whose messages' parent links form a
// cycle imported with exit 0 and no warning, and those messages were never shown. The cycle is
// now cut where it closes, said, and every message is in the conversation's thread.

let cyclic: string;
let id: string;

beforeAll(async () => {
  const dir = tempDir();
  const input = join(dir, 'conversations.json');
  writeFileSync(input, JSON.stringify([branchedConversation('c-cycle', 'Bicycle gears')]));
  const source = join(dir, 'source');
  const made = await chatgraph('import', input, '--data-dir', source, '-q');
  expect(made.code, made.stderr).toBe(0);
  const conversations = join(source, 'bundle', 'conversations');
  const name = readdirSync(conversations).find((f) => f.endsWith('.json')) ?? '';
  const conversation = JSON.parse(readFileSync(join(conversations, name), 'utf8')) as Conversation;
  id = conversation.id;
  // Three messages of their own, each the parent of the next and the last the first's.
  const [first] = conversation.messages;
  if (!first) throw new Error('no message');
  const loop = ['loop-1', 'loop-2', 'loop-3'].map((key, i, keys) => ({
    ...first,
    id: key,
    provider_message_id: null,
    content: { type: 'text' as const, text: `spoke number ${String(i + 1)}` },
    parent_id: keys[(i + 2) % 3] ?? null,
    children_ids: [keys[(i + 1) % 3] ?? ''],
  }));
  conversation.messages.push(...loop);
  cyclic = join(dir, 'cyclic.json');
  writeFileSync(cyclic, JSON.stringify(conversation));
}, 120_000);

describe('a PAM conversation whose parent links form a cycle (issue 41, point 20)', () => {
  it('is imported with a warning naming the cycle, and every message is shown', async () => {
    const data = join(tempDir(), 'data');
    const imported = await chatgraph('import', cyclic, '--data-dir', data);
    expect(`${imported.stdout}${imported.stderr}`).toMatch(/cycle/);
    expect(imported.code).toBeLessThan(2);
    const thread = await chatgraph('thread', id, '--all-branches', '--data-dir', data);
    expect(thread.code, thread.stderr).toBe(0);
    for (const n of [1, 2, 3]) expect(thread.stdout).toContain(`spoke number ${String(n)}`);
    expect(thread.stdout).toContain('second answer');
  }, 120_000);
});
