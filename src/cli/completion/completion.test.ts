import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { ROOT } from '../../../test/support/shared.js';
import { memoryIo } from '../cli-io.js';
import { buildProgram, runCli } from '../run-cli.js';
import { completionTree } from './completion-tree.js';
import { fishScript } from './fish-script.js';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const FIXTURE = join(ROOT, 'test', 'fixtures', 'chatgpt', 'kitchen-forks.json');

let folder: string;
let bin: string;
beforeAll(async () => {
  folder = tempDir();
  // A `chatgraph` on PATH, as an installed one would be: the script calls it for ids.
  bin = join(folder, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'chatgraph'),
    `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'dist', 'cli', 'main.js')}" "$@"\n`,
  );
  chmodSync(join(bin, 'chatgraph'), 0o755);
  for (const shell of ['bash', 'zsh', 'fish']) {
    const made = await cli('completion', shell);
    expect(made.code).toBe(0);
    writeFileSync(join(folder, `chatgraph.${shell}`), `${made.out}\n`);
  }
});

/** Sources the bash script, completes the words (the last one being typed), gives COMPREPLY. */
function complete(...words: string[]): string[] {
  const array = words.map((w) => `'${w}'`).join(' ');
  const script = `source '${join(folder, 'chatgraph.bash')}'
COMP_WORDS=(${array}); COMP_CWORD=${words.length - 1}
_chatgraph
printf '%s\\n' "\${COMPREPLY[@]}"`;
  const out = execFileSync('bash', ['-c', script], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
  });
  return out.split('\n').filter(Boolean);
}

describe('chatgraph completion', () => {
  it('prints a bash script that parses and completes commands, options and their values', () => {
    expect(spawnSync('bash', ['-n', join(folder, 'chatgraph.bash')]).status).toBe(0);
    expect(complete('chatgraph', 'se')).toEqual(['search', 'serve']);
    expect(complete('chatgraph', 'so')).toEqual(['sources']);
    expect(complete('chatgraph', 'search', '--so')).toEqual(['--source']);
    expect(complete('chatgraph', 'search', '--source', '')).toEqual(
      expect.arrayContaining(['chatgpt', 'claude-ai', 'claude-code', 'gemini']),
    );
    expect(complete('chatgraph', 'search', '--mode', 'sem')).toEqual(['semantic']);
    // An alias, a value of an option before the command's own, and a subcommand's options.
    expect(complete('chatgraph', 'ls', '--sort', '')).toEqual([
      'updated',
      'created',
      'messages',
      'title',
    ]);
    expect(complete('chatgraph', '--data-dir', 'x', 'ls', '--br')).toEqual(['--branches']);
    expect(complete('chatgraph', 'model', 'fetch', '--source', '')).toEqual(['hub', 'pypi']);
    expect(complete('chatgraph', 'model', '')).toEqual(expect.arrayContaining(['fetch', 'list']));
    expect(complete('chatgraph', 'completion', '')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('offers the conversation ids of the store after thread and delete', async () => {
    const data = join(folder, 'data');
    expect((await cli('import', FIXTURE, '--data-dir', data, '-q')).code).toBe(0);
    const listed = JSON.parse((await cli('list', '--json', '--data-dir', data)).out) as {
      conversations: { id: string }[];
    };
    const id = listed.conversations[0]?.id ?? '';
    expect(id).not.toBe('');
    expect(complete('chatgraph', 'thread', '--data-dir', data, '')).toEqual([id]);
    expect(complete('chatgraph', 'delete', '--data-dir', data, id.slice(0, 4))).toEqual([id]);
    // No store: nothing offered, and no error on the terminal.
    expect(complete('chatgraph', 'thread', '--data-dir', join(folder, 'none'), '')).toEqual([]);
  });

  it('prints a zsh script that zsh parses', () => {
    const checked = spawnSync('zsh', ['-n', join(folder, 'chatgraph.zsh')], { encoding: 'utf8' });
    expect(checked.stderr).toBe('');
    expect(checked.status).toBe(0);
  });

  it('prints a fish script with the commands, options and values', async () => {
    // fish is not installed here: its script is checked as text (fish -n where it is).
    const fish = fishScript(completionTree(await buildProgram(memoryIo())));
    const hasFish = spawnSync('fish', ['--version']).status === 0;
    if (hasFish) expect(spawnSync('fish', ['-n', join(folder, 'chatgraph.fish')]).status).toBe(0);
    expect(fish).toContain("-a search -d 'search every message'");
    expect(fish).toMatch(
      /-n '__fish_seen_subcommand_from search' -l source -x -a '(?:[^']* )?chatgpt claude-ai claude-code [^']*'/,
    );
    expect(fish).toContain(
      "-n '__fish_seen_subcommand_from thread' -a '(chatgraph __complete ids 2>/dev/null)'",
    );
  });

  it('is made from the command tree: a new command and option appear in every script', async () => {
    const program = await buildProgram(memoryIo());
    program.command('zebra').alias('zb').option('--stripes <n>', 'how many');
    const tree = completionTree(program);
    const zebra = tree.subcommands.find((c) => c.path[0] === 'zebra');
    expect(zebra).toMatchObject({
      aliases: ['zb'],
      options: [{ long: '--stripes', value: 'any' }, { long: '--help' }],
    });
    expect(tree.subcommands.map((c) => c.path[0])).not.toContain('__complete');
    const wrong = await cli('completion', 'tcsh');
    expect(wrong).toMatchObject({ code: 2, out: '' });
    expect(wrong.err).toBe('chatgraph: shell tcsh is not a shell (shells: bash, zsh, fish)');
  });
});
