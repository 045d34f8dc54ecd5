import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { importSamples } from './support/bundled-samples.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);
const CLI = join(ROOT, 'dist', 'cli', 'main.js');

describe('chatgraph thread', () => {
  it('prints no blank hidden messages (ChatGPT’s empty system prompt)', async () => {
    const message = (
      id: string,
      role: string,
      text: string,
      time: number | null,
      hidden = false,
    ) => ({
      id,
      author: { role, metadata: {} },
      create_time: time,
      content: { content_type: 'text', parts: [text] },
      metadata: hidden ? { is_visually_hidden_from_conversation: true } : {},
      recipient: 'all',
    });
    const conversation = {
      id: 'th-1',
      conversation_id: 'th-1',
      title: 'With a hidden system message',
      create_time: 1_700_000_000,
      update_time: 1_700_000_100,
      current_node: 'a',
      mapping: {
        root: { id: 'root', parent: null, children: ['sys'], message: null },
        sys: {
          id: 'sys',
          parent: 'root',
          children: ['u'],
          message: message('sys', 'system', '', null, true),
        },
        u: {
          id: 'u',
          parent: 'sys',
          children: ['a'],
          message: message('u', 'user', 'hello there', 1_700_000_001),
        },
        a: {
          id: 'a',
          parent: 'u',
          children: [],
          message: message('a', 'assistant', 'hi back', 1_700_000_002),
        },
      },
    };
    const dir = tempDir();
    const file = join(dir, 'conversations.json');
    writeFileSync(file, JSON.stringify([conversation]));
    const data = join(dir, 'data');
    await run(process.execPath, [CLI, 'import', file, '--data-dir', data, '-q']);
    const json = await run(process.execPath, [
      CLI,
      'thread',
      'th-1',
      '--data-dir',
      data,
      '--all-branches',
      '--format',
      'json',
    ]);
    // The store keeps the hidden message; only the printed transcript leaves it out.
    const parsed = JSON.parse(json.stdout) as { messages: { hidden: boolean; content: string }[] };
    expect(parsed.messages.some((m) => m.hidden && m.content === '')).toBe(true);
    const { stdout } = await run(process.execPath, [
      CLI,
      'thread',
      'th-1',
      '--data-dir',
      data,
      '--all-branches',
    ]);
    expect(stdout).not.toMatch(/\[system/);
    expect(stdout).toMatch(/\[user, shown\][^\n]*\n\s*hello there/);
  });
});

// The samples' Claude Code session "Add CSV import to budget app": tool calls and no text
// between them, written at 14:02 UTC on 20 July 2025.
const SESSION = 'f7915094';
let samples = '';

/** `thread` on the samples, piped (not a terminal), with these variables. */
async function thread(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [CLI, 'thread', ...args, '--data-dir', samples], {
    env: { ...process.env, ...env },
  });
}

/**
 * `thread` on the samples with its standard output a terminal `rows` high and 80 wide (util-linux
 * `script` gives it one), and the pager a script that keeps what it was given, and `LESS`.
 */
async function threadAtTerminal(
  rows: number,
  env: Record<string, string>,
  ...args: string[]
): Promise<{ shown: string; paged: string | undefined }> {
  const dir = tempDir();
  const paged = join(dir, 'paged.txt');
  const pager = join(dir, 'pager.sh');
  writeFileSync(pager, `#!/bin/sh\necho "LESS=$LESS" > '${paged}'\ncat >> '${paged}'\n`);
  chmodSync(pager, 0o755);
  // LESS unset, as on most machines: the CLI sets it for the pager, as git does.
  const { LESS: _less, ...withoutLess } = process.env;
  const quoted = [process.execPath, CLI, 'thread', ...args, '--data-dir', samples]
    .map((word) => `'${word}'`)
    .join(' ');
  const { stdout } = await run(
    'script',
    ['-q', '-e', '-c', `stty rows ${String(rows)} cols 80; ${quoted}`, '/dev/null'],
    { env: { ...withoutLess, PAGER: pager, TZ: 'UTC', ...env } },
  );
  return {
    shown: stdout.replace(/\r/g, ''),
    paged: existsSync(paged) ? readFileSync(paged, 'utf8') : undefined,
  };
}

// eslint-disable-next-line no-control-regex -- the escapes a terminal colours text with
const COLOUR = /\x1b\[[0-9;]*m/;

describe('chatgraph thread, read in a terminal', () => {
  beforeAll(() => {
    samples = join(tempDir(), 'data');
    importSamples(samples);
  }, 120_000);

  it('shows each Claude Code tool call as one line, and whole with --tools', async () => {
    const { stdout } = await thread({ TZ: 'UTC' }, SESSION);
    expect(stdout).toContain(
      '⚙ Bash: python -m pytest -q tests/test_import_csv.py → 2 lines, ending: 2 passed in 0.08s',
    );
    expect(stdout).toContain('⚙ Read: /home/sam/code/budget-app/src/db.py → 6 lines');
    // No message of the session is a header over nothing.
    expect(stdout).not.toMatch(/\] [^\n]*\n\n/);
    for (const line of stdout.split('\n').filter((l) => l.startsWith('⚙')))
      expect(line.length, line).toBeLessThanOrEqual(100);
    const whole = await thread({ TZ: 'UTC' }, SESSION, '--tools');
    expect(whole.stdout).toContain(
      '⚙ Write\n  file_path: /home/sam/code/budget-app/src/import_csv.py\n  content:\n    import csv\n',
    );
    expect(whole.stdout).toContain('  output:\n    ..\n    2 passed in 0.08s');
  });

  it('says times as the local date and minute', async () => {
    const utc = await thread({ TZ: 'UTC' }, SESSION);
    expect(utc.stdout).toContain('[user] 2025-07-20 14:02  id ');
    const paris = await thread({ TZ: 'Europe/Paris' }, SESSION);
    expect(paris.stdout).toContain('[user] 2025-07-20 16:02  id ');
    expect(paris.stdout).not.toMatch(/\d{2}:\d{2}:\d{2}\.\d+Z/);
    // JSON keeps the stored time whole.
    const json = await thread({ TZ: 'Europe/Paris' }, SESSION, '--json');
    expect(json.stdout).toContain('"createdAt": "2025-07-20T14:02:26.500000Z"');
  });

  it('colours roles on a terminal only, never with NO_COLOR or --no-color', async () => {
    const tall = 2000;
    const coloured = await threadAtTerminal(tall, {}, SESSION);
    expect(coloured.shown).toMatch(COLOUR);
    expect(coloured.shown).toContain('\x1b[1m\x1b[36muser\x1b[39m\x1b[22m');
    expect((await threadAtTerminal(tall, { NO_COLOR: '1' }, SESSION)).shown).not.toMatch(COLOUR);
    expect((await threadAtTerminal(tall, {}, SESSION, '--no-color')).shown).not.toMatch(COLOUR);
    expect((await thread({}, SESSION)).stdout).not.toMatch(COLOUR);
  });

  it('pages a conversation longer than the screen, as git does: $PAGER, LESS=FRX, --no-pager', async () => {
    const long = await threadAtTerminal(20, {}, SESSION);
    expect(long.paged?.split('\n')[0]).toBe('LESS=FRX');
    expect(long.paged).toContain('Add CSV import to budget app');
    expect(long.shown).not.toContain('Add CSV import to budget app');
    // LESS set by the person is theirs.
    expect((await threadAtTerminal(20, { LESS: '-S' }, SESSION)).paged?.split('\n')[0]).toBe(
      'LESS=-S',
    );
    const straight = await threadAtTerminal(20, {}, SESSION, '--no-pager');
    expect(straight.paged).toBeUndefined();
    expect(straight.shown).toContain('Add CSV import to budget app');
    // What fits the screen is written straight out.
    const fits = await threadAtTerminal(2000, {}, SESSION);
    expect(fits.paged).toBeUndefined();
    expect(fits.shown).toContain('Add CSV import to budget app');
  });
});
