import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_CHOICE } from '../src/cli/source-choice.js';
import { memoryIo } from '../src/cli/cli-io.js';
import { describeEvent } from '../src/cli/follow-status.js';
import { runCli } from '../src/cli/run-cli.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

/** One command line run in this process: its exit code and what it printed. */
async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const SAMPLES = ['chatgpt-export.zip', 'claude-export.zip', 'claude-code'].map((n) =>
  join(ROOT, 'samples', n),
);

let data: string;
beforeAll(async () => {
  data = tempDir();
  const imported = await cli('import', ...SAMPLES, '--data-dir', data, '-q');
  expect(imported.code).toBe(0);
}, 120_000);

describe('a wrong command line: one line, the usage line of that command, exit 2', () => {
  const wrong: [string[], string, string][] = [
    [
      ['search', 'bread', '--limt', '5'],
      'unknown option --limt for search (did you mean --limit?)',
      'usage: chatgraph search [options] <terms...>',
    ],
    [
      ['import', '--dta-dir', 'x'],
      'unknown option --dta-dir for import (did you mean --data-dir?)',
      'usage: chatgraph import [options] [input...]',
    ],
    [
      ['list', '--sot', 'title'],
      'unknown option --sot for list (did you mean --sort?)',
      'usage: chatgraph list [options]',
    ],
    [
      ['serch', 'bread'],
      'unknown command serch (did you mean search?)',
      'usage: chatgraph [options] [command]',
    ],
    [
      ['model', 'lst'],
      'unknown command lst (did you mean list?)',
      'usage: chatgraph model [options] [command]',
    ],
    [
      ['frobnicate'],
      'unknown command frobnicate (chatgraph --help lists them)',
      'usage: chatgraph [options] [command]',
    ],
    [
      // import tells each file's source itself: --source is another command's, not a typo of --force.
      ['import', '--source', 'chatgtp', 'x.zip'],
      'unknown option --source for import (export, list, model fetch and others take it; chatgraph import --help lists what import takes)',
      'usage: chatgraph import [options] [input...]',
    ],
    [
      ['thread'],
      "missing required argument 'conversation-or-message-id'",
      'usage: chatgraph thread [options] <conversation-or-message-id>',
    ],
  ];
  for (const [args, said, usage] of wrong)
    it(`chatgraph ${args.join(' ')}`, async () => {
      expect(await cli(...args)).toEqual({
        code: 2,
        out: '',
        err: `chatgraph: ${said}\n${usage}`,
      });
    });

  // Every chat platform and coding agent is a source: too many to list in an error line.
  const sources = `chatgraph sources lists all ${String(SOURCE_CHOICE.values.length)}`;
  const badValues: [string[], string][] = [
    [
      ['search', 'bread', '--source', 'chatgtp'],
      `--source chatgtp is not a source (did you mean chatgpt? ${sources})`,
    ],
    [
      ['list', '--source', 'claud-code'],
      `--source claud-code is not a source (did you mean claude-code? ${sources})`,
    ],
    [
      ['search', 'bread', '--mode', 'hybird'],
      '--mode hybird is not a mode (did you mean hybrid? modes: keyword, semantic, hybrid)',
    ],
    [
      ['search', 'bread', '--role', 'asistant'],
      '--role asistant is not a role (did you mean assistant? roles: user, assistant, tool, system)',
    ],
    [
      ['list', '--sort', 'titel'],
      '--sort titel is not a sort (did you mean title? sorts: updated, created, messages, title)',
    ],
    [
      ['memories', '--type', 'prefrence'],
      '--type prefrence is not a memory type (did you mean preference? types: fact, preference, skill, context, relationship, goal, instruction, identity, environment, project, custom)',
    ],
    [
      ['remember', 'x', '--type', 'opinion'],
      '--type opinion is not a memory type (types: fact, preference, skill, context, relationship, goal, instruction, identity, environment, project, custom)',
    ],
    [
      ['model', 'fetch', '--source', 'pypy'],
      '--source pypy is not a model source (did you mean pypi? sources: hub, pypi)',
    ],
    [
      ['stats', '--format', 'jsn'],
      '--format jsn is not a format (did you mean json? formats: table, json)',
    ],
    [
      ['list', '--since', 'yesterdy'],
      'since takes a date like 2024-05-01 or 2024-05-01T10:00:00Z, or 24h, 7d, 2w, today or yesterday, not "yesterdy" (did you mean yesterday?)',
    ],
    [
      ['search', 'bread', '--since', '7 days'],
      'since takes a date like 2024-05-01 or 2024-05-01T10:00:00Z, or 24h, 7d, 2w, today or yesterday, not "7 days" (did you mean 7d?)',
    ],
  ];
  it('takes every readable coding agent as a --source, and no store it cannot read', () => {
    expect(SOURCE_CHOICE.values).toEqual(
      expect.arrayContaining(['codex', 'gemini-cli', 'qwen-code', 'cline', 'roo-code', 'aider']),
    );
    expect(SOURCE_CHOICE.values).not.toContain('windsurf');
    expect(SOURCE_CHOICE.values).not.toContain('pam');
  });

  for (const [args, said] of badValues)
    it(`chatgraph ${args.join(' ')}`, async () => {
      expect(await cli(...args, ...(args[0] === 'model' ? [] : ['--data-dir', data]))).toEqual({
        code: 2,
        out: '',
        err: `chatgraph: ${said}`,
      });
    });

  it('lists the commands in groups, one line each, within 80 columns', async () => {
    const help = await cli('--help');
    expect(help.code).toBe(0);
    const lines = help.out.split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    const headings = lines.filter((line) => /^[A-Z][^:]*:$/.test(line));
    expect(headings).toEqual([
      'Options:',
      'Get data in:',
      'Find:',
      'Read:',
      'Agents:',
      'Out:',
      'Trust:',
      'Admin:',
    ]);
    // Every command once, on its own line, under a heading: none left in a "Commands:" heap.
    const listed = lines
      .filter((line) => /^ {2}[a-z]/.test(line))
      .map((l) => l.trim().split(/\s{2,}/)[0]);
    expect(listed).toContain('list, ls');
    expect(listed).toContain('thread');
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.length).toBeGreaterThanOrEqual(30);
  });

  it("wraps every command's help at 80 columns between words", async () => {
    const commands = ['import', 'list', 'search', 'thread', 'export', 'watch', 'serve', 'embed'];
    for (const name of commands) {
      const help = await cli(name, '--help');
      for (const line of help.out.split('\n'))
        expect(line.length, `${name}: ${line}`).toBeLessThanOrEqual(80);
    }
  });

  it('keeps the whole help behind --help', async () => {
    const help = await cli('search', '--help');
    expect(help.code).toBe(0);
    expect(help.out).toContain('--mode <mode>');
    expect(help.out.split('\n').length).toBeGreaterThan(10);
  });
});

describe('chatgraph list', () => {
  it('prints a table that fits 80 columns, ids short and whole, titles cut with an ellipsis', async () => {
    const { code, out } = await cli('list', '--data-dir', data, '--limit', '48');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^id +updated +source +msgs +title$/);
    const rows = lines.slice(1, -2);
    expect(rows).toHaveLength(48);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    const ids = rows.map((row) => row.split(' ')[0] ?? '');
    expect(new Set(ids).size).toBe(48);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{8,}$/);
    expect(lines.at(-1)).toBe('1–48 of 48 conversations');
    // Last updated first.
    const days = rows.map((row) => row.split(/ +/)[1] ?? '');
    expect(days).toEqual([...days].sort().reverse());
  });

  it('filters, sorts and pages; --json has whole ids', async () => {
    const json = await cli(
      'ls',
      '--data-dir',
      data,
      '--source',
      'claude-code',
      '--sort',
      'messages',
      '--json',
    );
    const page = JSON.parse(json.out) as {
      conversations: {
        id: string;
        platformId: string;
        title: string;
        source: string;
        createdAt: string;
        updatedAt: string | null;
        messages: number;
      }[];
      total: number;
      offset: number;
    };
    expect(page.total).toBe(5);
    expect(page.offset).toBe(0);
    expect(Object.keys(page.conversations[0] ?? {})).toEqual([
      'id',
      'platformId',
      'title',
      'source',
      'createdAt',
      'updatedAt',
      'messages',
    ]);
    const counts = page.conversations.map((c) => c.messages);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    for (const c of page.conversations) expect(c.id).toMatch(/^[0-9a-f]{8}-[0-9a-f-]{27}$/);

    const atLeast = JSON.parse(
      (await cli('list', '--data-dir', data, '--min-messages', '6', '--json')).out,
    ) as typeof page;
    expect(atLeast.conversations.every((c) => c.messages >= 6)).toBe(true);
    expect(atLeast.total).toBeGreaterThan(0);

    const project = JSON.parse(
      (await cli('list', '--data-dir', data, '--project', 'budget', '--json')).out,
    ) as typeof page;
    expect(project.conversations.map((c) => c.title).sort()).toEqual([
      'Add CSV import to budget app',
      'Fix flaky month summary test',
    ]);

    const branches = JSON.parse(
      (await cli('list', '--data-dir', data, '--branches', '--json')).out,
    ) as typeof page;
    // Three ChatGPT forks, a retried Claude.ai answer, two edited first Claude.ai messages.
    expect(branches.total).toBe(6);

    const titles = JSON.parse(
      (
        await cli(
          'list',
          '--data-dir',
          data,
          '--sort',
          'title',
          '--limit',
          '3',
          '--offset',
          '1',
          '--json',
        )
      ).out,
    ) as typeof page;
    expect(titles.offset).toBe(1);
    const names = titles.conversations.map((c) => c.title.toLowerCase());
    expect(names).toEqual([...names].sort());

    const one = await cli('list', '--data-dir', data, '--title', 'budget');
    expect(one.out.split('\n').at(-1)).toBe('1–1 of 1 conversation');
    const paged = await cli('list', '--data-dir', data, '--limit', '2');
    expect(paged.out.split('\n').at(-1)).toBe('1–2 of 48 conversations (--offset 2 for more)');
    expect((await cli('list', '--data-dir', data, '--title', 'no such words')).out).toBe(
      'no conversations match',
    );
  });
});

describe('--json on every command', () => {
  it('prints one JSON document on stdout for each', async () => {
    const folder = tempDir();
    const scratch = tempDir();
    await cli('import', join(ROOT, 'samples', 'claude-code'), '--data-dir', folder, '-q');
    const listed = JSON.parse((await cli('list', '--data-dir', folder, '--json')).out) as {
      conversations: { id: string }[];
    };
    const id = listed.conversations[0]?.id ?? '';
    const remembered = JSON.parse(
      (
        await cli(
          'remember',
          'The backup runs nightly',
          '--type',
          'fact',
          '--data-dir',
          folder,
          '--json',
        )
      ).out,
    ) as { memory: { id: string } };
    const commands: string[][] = [
      ['stats'],
      ['usage'],
      ['list'],
      ['search', 'backup'],
      ['search', 'backup', '--format', 'json'],
      ['thread', id],
      ['query', 'MATCH (c:Conversation) RETURN c.name AS name LIMIT 2'],
      ['sources'],
      ['memories'],
      ['forget', remembered.memory.id],
      ['model', 'list'],
      ['embed'],
      ['reindex'],
      ['import', join(ROOT, 'samples', 'claude-code')],
      ['convert', join(ROOT, 'samples', 'claude-code'), '-o', join(scratch, 'bundle')],
      ['sample', '-o', join(scratch, 'samples')],
      ['export', '--format', 'markdown', '--out', join(scratch, 'export')],
      ['delete', id],
    ];
    for (const args of commands) {
      const run = await cli(
        ...args,
        ...(args[0] === 'sources' ||
        args[0] === 'sample' ||
        args[0] === 'convert' ||
        args[0] === 'model'
          ? []
          : ['--data-dir', folder]),
        '--json',
      );
      expect({ args, code: run.code }).toEqual({ args, code: 0 });
      expect(
        () => JSON.parse(run.out) as unknown,
        `${args.join(' ')}: ${run.out.slice(0, 200)}`,
      ).not.toThrow();
    }
  }, 300_000);
});

describe('the small things', () => {
  it('export --out onto a file says so in one line, exit 2', async () => {
    const dir = tempDir();
    const file = join(dir, 'README.md');
    writeFileSync(file, '# mine\n');
    for (const out of [file, join(file, 'notes')])
      expect(await cli('export', '--format', 'markdown', '--out', out, '--data-dir', data)).toEqual(
        {
          code: 2,
          out: '',
          err: `chatgraph: --out ${out}: ${file} is a file, not a folder; give a folder to write the markdown export into`,
        },
      );
    expect(readFileSync(file, 'utf8')).toBe('# mine\n');
  });

  it('importing the same files again says there is nothing new, in one line: no table of zeros', async () => {
    const again = await cli('import', ...SAMPLES.slice(0, 2), '--data-dir', data, '-q');
    expect(again).toEqual({
      code: 0,
      out: 'nothing new: the 2 files were imported before, unchanged (--force reads them again)',
      err: '',
    });
    // Read again, the table names each source as every other command does (claude-ai), and
    // counts what is new: the memories the bundle holds already are not.
    const forced = await cli('import', SAMPLES[1] ?? '', '--force', '--data-dir', data, '-q');
    const [head = '', row = ''] = forced.out.split('\n');
    expect(head.trim().split(/\s{2,}/)).toEqual([
      'conversations',
      'messages',
      'branches',
      'tool calls',
      'attachments',
      'memories',
      'skipped',
    ]);
    expect(row.split(/\s+/)).toEqual(['claude-ai', '18', '53', '3', '2', '2', '0', '0']);
  }, 120_000);

  it('import --restore with no path says in one line that it needs the export', async () => {
    const folder = tempDir();
    await cli('import', join(ROOT, 'samples', 'chatgpt-export.zip'), '--data-dir', folder, '-q');
    const nothing = await cli('import', '--restore', '--data-dir', folder);
    expect(nothing).toEqual({
      code: 0,
      out: `nothing to restore: no conversation in ${folder} was deleted with "chatgraph delete"`,
      err: '',
    });
    const listed = JSON.parse((await cli('list', '--data-dir', folder, '--json')).out) as {
      conversations: { id: string }[];
    };
    for (const c of listed.conversations.slice(0, 2))
      await cli('delete', c.id, '--data-dir', folder);
    const restore = await cli('import', '--restore', '--data-dir', folder);
    expect(restore).toEqual({
      code: 2,
      out: '',
      err: 'chatgraph: import --restore reads deleted conversations again from their export, and 2 deleted conversations (chatgpt) left the bundle with their text: chatgraph import --restore <export>',
    });
    const back = await cli(
      'import',
      '--restore',
      join(ROOT, 'samples', 'chatgpt-export.zip'),
      '--data-dir',
      folder,
      '-q',
    );
    expect(back.code).toBe(0);
    expect(JSON.parse((await cli('list', '--data-dir', folder, '--json')).out)).toMatchObject({
      total: 25,
    });
  }, 120_000);

  it("watch's line keeps every id whole at the terminal's width, giving up the path first", () => {
    const id = 'f7915094-e592-5d78-adfd-b374dedc151b';
    const event = {
      kind: 'imported' as const,
      file: '/home/someone/.claude/projects/-home-someone-code-a-very-long-project-name/7a39646d-7555-4a08-861e-14c79b10e240.jsonl',
      lines: 1,
      written: 1,
      conversations: [{ id, messages: 1 }],
      leftDeleted: 0,
    };
    const wide = describeEvent(event, '/');
    expect(wide).toMatch(/: 1 line read, 1 conversation written: f7915094-\S+ \(1 message\)$/);
    for (const width of [120, 80, 60]) {
      const line = describeEvent(event, '/', width);
      expect(line).toContain(id);
      expect(line.length).toBeLessThanOrEqual(Math.max(width, `imported ${id} (1 message)`.length));
    }
    expect(describeEvent(event, '/', 140)).toMatch(/^imported …\S+\.jsonl: 1 line read/);
  });
});
