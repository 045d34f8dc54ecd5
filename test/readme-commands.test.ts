import { execFile } from 'node:child_process';
import { chmodSync, cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { CLI } from './support/run-cli.js';
import { pamSchemaDir } from './support/pam-validator.js';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);

/** A block the README marks as running, as written, on the bundled samples. */
const RUNS_ON_SAMPLES = '<!-- readme: runs on the samples -->';

interface Block {
  file: string;
  lines: string[];
  runs: boolean;
}

/** Every ```sh block of the README and docs/, with whether it is marked to run. */
function shellBlocks(): Block[] {
  const files = ['README.md', ...readdirSync(join(ROOT, 'docs')).map((name) => `docs/${name}`)];
  return files
    .filter((file) => file.endsWith('.md'))
    .flatMap((file) => {
      const text = readFileSync(join(ROOT, file), 'utf8');
      return [...text.matchAll(/(?:^|\n)([^\n]*)\n```sh\n([\s\S]*?)\n```/g)].map((match) => ({
        file,
        lines: (match[2] ?? '').split('\n').filter((line) => line.trim() !== ''),
        runs: (match[1] ?? '').trim() === RUNS_ON_SAMPLES,
      }));
    });
}

/** Shell words of a line, quotes honoured, a trailing `# comment` dropped. */
function words(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line.charAt(i);
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else word = (word ?? '') + c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '#' && word === undefined) break;
    else if (/\s/.test(c)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) out.push(word);
  return out;
}

/** The chatgraph invocations of a line (`a && npx chatgraph b && chatgraph c`), as words. */
function invocations(line: string): string[][] {
  const all = words(line);
  const calls: string[][] = [];
  let current: string[] | undefined;
  for (const [i, word] of all.entries()) {
    if (word === '&&' || word === '|' || word === ';') current = undefined;
    else if (word === 'chatgraph' && (i === 0 || ['&&', 'npx'].includes(all[i - 1] ?? ''))) {
      current = [];
      calls.push(current);
    } else current?.push(word);
  }
  return calls;
}

const helps = new Map<string, Promise<string>>();
function help(path: string[]): Promise<string> {
  const key = path.join(' ');
  let text = helps.get(key);
  if (text === undefined) {
    text = run(process.execPath, [CLI, ...path, '--help']).then((r) => r.stdout);
    helps.set(key, text);
  }
  return text;
}

/** The command words of an invocation (`model fetch`), as far as the help lists them. */
async function commandOf(call: string[]): Promise<string[]> {
  const path: string[] = [];
  for (const word of call) {
    if (word.startsWith('-')) break;
    const text = await help(path);
    // The commands are listed under headings of their own (`Find:`, `Commands:`): every
    // section but the usage, the options and the arguments.
    const commands = text
      .split(/\n(?=\S[^\n]*:\n)/)
      .filter((section) => !/^(Usage|Options|Arguments|Global Options):/.test(section))
      .join('\n');
    // A command may have an alias: `list, ls` (or `list|ls [options]` in a command's own help).
    if (!new RegExp(`^\\s+(?:[\\w-]+(?:\\||, ))*${word}\\b`, 'm').test(commands)) break;
    path.push(word);
  }
  return path;
}

describe('the commands in the README and docs/', () => {
  it('name commands and options that exist', async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const block of shellBlocks()) {
      for (const line of block.lines) {
        for (const call of invocations(line)) {
          checked++;
          const path = await commandOf(call);
          if (path.length === 0 && call.length > 0 && !call[0]?.startsWith('-')) {
            wrong.push(`${block.file}: unknown command in: ${line}`);
            continue;
          }
          const text = await help(path);
          for (const word of call.filter((w) => w.startsWith('--'))) {
            const option = word.split('=')[0] ?? word;
            if (!text.includes(option))
              wrong.push(`${block.file}: ${option} is not an option of ${path.join(' ')}: ${line}`);
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(25);
    expect(wrong).toEqual([]);
  }, 300_000);

  it('the first block is the two commands a newcomer needs, and the first runs on the samples', async () => {
    const [first] = shellBlocks().filter((block) => block.file === 'README.md');
    expect(first?.lines).toHaveLength(2);
    const [setUp, tests] = first?.lines ?? [];
    expect(tests).toBe('npm run check');
    expect(setUp).toMatch(/^npm ci && npx chatgraph import /);
    // Everything after `npm ci`, in a folder holding the samples, as a newcomer's shell runs it.
    const { stdout } = await inSamples((setUp ?? '').replace(/^npm ci && /, ''));
    expect(stdout).toMatch(/^2025-02-09 {2}chatgpt {2}Sourdough Starter Not Rising/m);
  }, 300_000);

  it('the blocks marked to run on the samples run as written, each line exiting 0', async () => {
    const blocks = shellBlocks().filter((block) => block.runs);
    expect(blocks.length).toBeGreaterThan(0);
    const dir = samplesFolder();
    await shell(
      dir,
      'chatgraph import samples/chatgpt-export.zip samples/claude-export.zip samples/claude-code --quiet',
    );
    for (const block of blocks) {
      for (const line of block.lines) {
        const result = await shell(dir, line).catch((error: unknown) => ({ error }));
        expect(result, `${block.file}: ${line}`).not.toHaveProperty('error');
      }
    }
    const semantic = await shell(
      dir,
      'chatgraph search "dog destroying furniture" --mode semantic --limit 1',
    );
    expect(semantic.stdout).toContain('Puppy Chewing the Sofa');
  }, 600_000);
});

/** A folder with a copy of the samples and a `chatgraph` on its PATH that runs the built CLI. */
function samplesFolder(): string {
  const dir = tempDir();
  cpSync(join(ROOT, 'samples'), join(dir, 'samples'), { recursive: true });
  writeFileSync(join(dir, 'chatgraph'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(join(dir, 'chatgraph'), 0o755);
  return dir;
}

function shell(dir: string, line: string): Promise<{ stdout: string; stderr: string }> {
  return run('bash', ['-c', line.replace(/\bnpx chatgraph\b/g, 'chatgraph')], {
    cwd: dir,
    env: {
      ...process.env,
      PATH: `${dir}:${process.env.PATH ?? ''}`,
      CHATGRAPH_DATA_DIR: join(dir, 'my-data'),
      // `sync` makes this machine's keys in its config folder: the test's, not the user's.
      XDG_CONFIG_HOME: join(dir, 'config'),
      // The official PAM JSON Schemas as `npm run provision` installs them: `validate
      // --fetch-schemas` finds them and fetches nothing.
      CHATGRAPH_PAM_SCHEMAS: pamSchemaDir(),
    },
    maxBuffer: 16 * 1024 * 1024,
  });
}

function inSamples(line: string): Promise<{ stdout: string; stderr: string }> {
  return shell(samplesFolder(), line);
}
