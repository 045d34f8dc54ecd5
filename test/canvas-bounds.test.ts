// Issue 41, point 12: a canvas update is a regular expression from the export, so from anyone.
// A pattern that backtracks for ever, or updates that double the document each time, must not
// hang an import nor fill the disk: the import ends, with a warning, and the folder stays small.
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { msg, node } from './support/chatgpt-builder.js';

type Json = Record<string, unknown>;

/** A conversation that creates a canvas of `content`, then sends each of `updates`. */
function canvasConversation(id: string, content: string, updates: Json[][]): Json {
  const mapping: Json = { root: node('root', null, ['u'], null) };
  const call = (key: string, recipient: string, input: Json): Json =>
    msg(key, 'assistant', '', 1_767_000_000, {
      recipient,
      content: { content_type: 'code', language: 'json', text: JSON.stringify(input) },
    });
  const keys = ['u', 'create', ...updates.map((_, n) => `update-${n}`)];
  mapping.u = node('u', 'root', ['create'], msg('u', 'user', 'Write it.', 1_767_000_000));
  mapping.create = node(
    'create',
    'u',
    keys.slice(2, 3),
    call('create', 'canmore.create_textdoc', { name: 'Notes', type: 'document', content }),
  );
  updates.forEach((update, n) => {
    const key = `update-${n}`;
    mapping[key] = node(
      key,
      keys[n + 1] ?? null,
      keys.slice(n + 3, n + 4),
      call(key, 'canmore.update_textdoc', { updates: update }),
    );
  });
  return {
    id,
    conversation_id: id,
    title: 'Canvas',
    create_time: 1_767_000_000,
    update_time: 1_767_000_100,
    current_node: keys.at(-1),
    mapping,
  };
}

function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => statSync(join(dir, name)))
    .filter((stat) => stat.isFile())
    .reduce((sum, stat) => sum + stat.size, 0);
}

describe('hostile canvas updates', () => {
  it('applies a pattern that backtracks for ever, (a+)+$, in linear time on 2 KB', async () => {
    const file = join(tempDir(), 'conversations.json');
    const conversation = canvasConversation('redos', `${'a'.repeat(2048)}!`, [
      [{ pattern: '(a+)+$', multiple: false, replacement: 'b' }],
      [{ pattern: '!', multiple: false, replacement: '.' }],
    ]);
    writeFileSync(file, JSON.stringify([conversation]));
    const { conversations, report } = await convertToTemp([file]);
    const names = conversations[0]?.messages.flatMap((m) => m.attachments.map((a) => a.name));
    // The hopeless pattern is reported; the next update applies to the version before it.
    expect(names).toEqual(['Notes', 'Notes (version 2)']);
    const warning = report.problems.find((p) => p.code === 'canvas-update-not-applied');
    expect(warning?.examples[0]?.message).toContain('the pattern "(a+)+$" matches nothing');
  }, 30_000);

  it('keeps a 4.6 KB canvas that doubles itself 25 times within what its calls could write', async () => {
    const dir = tempDir();
    const file = join(dir, 'conversations.json');
    const doubling = Array.from({ length: 25 }, () => [
      { pattern: '(.*)', multiple: false, replacement: '\\1\\1' },
    ]);
    writeFileSync(
      file,
      JSON.stringify([canvasConversation('bomb', 'word '.repeat(920), doubling)]),
    );
    const out = join(dir, 'bundle');
    const { report } = await convertToTemp([file], out);
    // Before: 25 versions of up to 154 GB each; now the document stops at 256 Ki characters.
    expect(folderBytes(out)).toBeLessThan(2 * 1024 * 1024);
    const refused = report.problems.find((p) => p.code === 'canvas-update-not-applied');
    expect(refused?.count).toBeGreaterThan(15);
    expect(refused?.examples[0]?.message).toMatch(
      /would make the document longer than 262144 characters/,
    );
  }, 60_000);
});
