import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { msg, node } from '../../../test/support/chatgpt-builder.js';
import { memoryIo } from '../cli-io.js';
import { runCli } from '../run-cli.js';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const at = (n: number): number => 1_700_000_000 + n;

// u1 → a1 → u2 → a2 → u3 → a3 (shown), and at u2 an alternative answer a2b → u3b.
function forked(id: string, title: string): Record<string, unknown> {
  return {
    id,
    conversation_id: id,
    title,
    create_time: at(0),
    update_time: at(9),
    current_node: 'a3',
    mapping: {
      root: node('root', null, ['u1'], null),
      u1: node('u1', 'root', ['a1'], msg('u1', 'user', 'first question', at(1))),
      a1: node('a1', 'u1', ['u2'], msg('a1', 'assistant', 'first answer', at(2))),
      u2: node('u2', 'a1', ['a2', 'a2b'], msg('u2', 'user', 'second question', at(3))),
      a2: node('a2', 'u2', ['u3'], msg('a2', 'assistant', 'kept answer', at(4))),
      u3: node('u3', 'a2', ['a3'], msg('u3', 'user', 'third question', at(5))),
      a3: node('a3', 'u3', [], msg('a3', 'assistant', 'last answer', at(6))),
      a2b: node('a2b', 'u2', ['u3b'], msg('a2b', 'assistant', 'regenerated answer', at(7))),
      u3b: node('u3b', 'a2b', [], msg('u3b', 'user', 'question on the other branch', at(8))),
    },
  };
}

let data = '';
beforeAll(async () => {
  const dir = tempDir();
  const file = join(dir, 'conversations.json');
  writeFileSync(
    file,
    JSON.stringify([
      forked('shared-prefix-one', 'Forked one'),
      forked('shared-prefix-two', 'Forked two'),
    ]),
  );
  data = join(dir, 'data');
  expect((await cli('import', file, '--data-dir', data, '-q')).code).toBe(0);
});

/** The short id `thread` printed for the message with this text. */
function idOf(out: string, text: string): string {
  const lines = out.split('\n');
  const i = lines.findIndex((l) => l.trim() === text);
  const id = / id (\S+)$/.exec(lines[i - 1] ?? '')?.[1];
  if (id === undefined) throw new Error(`no id printed above "${text}"`);
  return id;
}

describe('thread and the ids people type', () => {
  it('takes a whole platform id or the start of ours, and prints each message’s short id', async () => {
    const whole = await cli('thread', 'shared-prefix-one', '--data-dir', data, '--format', 'json');
    const { conversation } = JSON.parse(whole.out) as { conversation: { id: string } };
    const short = await cli('thread', conversation.id.slice(0, 8), '--data-dir', data);
    expect(short.code).toBe(0);
    expect(short.out).toMatch(/^# Forked one/);
    const headers = short.out.split('\n').filter((l) => l.startsWith('['));
    expect(headers).toHaveLength(6);
    for (const header of headers) expect(header).toMatch(/ id [0-9a-f-]{8,}$/);
  });

  it('refuses an ambiguous start naming the candidates, and an unknown id, with exit 2', async () => {
    const ambiguous = await cli('thread', 'shared-prefix', '--data-dir', data);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.err).toMatch(
      /^chatgraph: "shared-prefix" starts the ids of 2 conversations: \S+ "Forked one", \S+ "Forked two"; give more characters$/,
    );
    const unknown = await cli('thread', 'no-such-id-at-all', '--data-dir', data);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toBe(
      'chatgraph: there is no conversation or message with id no-such-id-at-all (nor one starting with it)',
    );
    const short = await cli('thread', 'shar', '--data-dir', data);
    expect(short.code).toBe(2);
    expect(short.err).toMatch(/8 characters at least/);
  });

  it('opens at a message: the branch through it, the message and the fork marked', async () => {
    const all = await cli('thread', 'shared-prefix-one', '--data-dir', data, '--all-branches');
    const id = idOf(all.out, 'question on the other branch');
    const opened = await cli('thread', id, '--data-dir', data);
    expect(opened.code).toBe(0);
    // The heading, its platform address and the message lines left out: the texts in order.
    const texts = opened.out
      .split('\n')
      .filter((l) => !l.startsWith('[') && !l.startsWith('#') && !l.startsWith('https://'));
    expect(texts.filter((l) => l.trim() !== '' && !l.startsWith('──'))).toEqual([
      'first question',
      'first answer',
      'second question',
      'regenerated answer',
      'question on the other branch',
    ]);
    const second = idOf(opened.out, 'second question');
    expect(opened.out).toContain(
      `── fork: this branch leaves the shown thread after message ${second} ──\n\n[assistant] `,
    );
    expect(opened.out).toMatch(
      /\[user, ◀ this message\] [^\n]* id \S+\nquestion on the other branch/,
    );
    // A message on the shown thread opens the shown thread, no fork said.
    const onShown = await cli('thread', idOf(all.out, 'first answer'), '--data-dir', data);
    expect(onShown.out).toContain('last answer');
    expect(onShown.out).not.toContain('fork');
    expect(onShown.out).toMatch(/\[assistant, ◀ this message\]/);
    const json = await cli('thread', id, '--data-dir', data, '--format', 'json');
    expect((JSON.parse(json.out) as { at: string }).at).toMatch(/:/);
  });

  it('--all-branches indents only at forks, not by depth', async () => {
    const all = await cli('thread', 'shared-prefix-two', '--data-dir', data, '--all-branches');
    const lines = all.out.split('\n');
    const line = (text: string): string => lines.find((l) => l.trim() === text) ?? '';
    // The shown thread, six messages deep, stays at the left margin.
    for (const text of ['first question', 'second question', 'kept answer', 'last answer'])
      expect(line(text)).toBe(text);
    // The alternative answer and what follows it: one level in, however deep.
    expect(line('regenerated answer')).toBe('  regenerated answer');
    expect(line('question on the other branch')).toBe('  question on the other branch');
    const second = idOf(all.out, 'second question');
    expect(all.out).toMatch(new RegExp(`  \\[assistant, branch from ${second}\\] `));
  });
});
