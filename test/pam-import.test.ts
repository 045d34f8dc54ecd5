import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from './support/convert-to-temp.js';
import { pamConvert, pamValidate } from './support/pam-sdk.js';
import { CLI, chatgraph } from './support/run-cli.js';
import { existsSync } from 'node:fs';

// Bundles written by another tool: the official SDK's `pam convert` over two of our own
// fixture exports (a branching ChatGPT conversation, two Claude ones), imported with the CLI.
const FIXTURES = join(import.meta.dirname, 'fixtures');

const Listed = z.object({
  conversations: z.array(
    z.object({
      id: z.string(),
      platformId: z.string().nullable(),
      source: z.string(),
      messages: z.number(),
    }),
  ),
  total: z.number(),
});

const Report = z.object({
  totals: z.object({ conversations: z.number(), memories: z.number(), skipped: z.number() }),
  written: z.object({ created: z.number(), updated: z.number(), unchanged: z.number() }),
  problems: z.array(
    z.object({
      code: z.string(),
      level: z.string(),
      examples: z.array(z.object({ message: z.string(), file: z.string().optional() })),
    }),
  ),
});

async function list(data: string): Promise<z.infer<typeof Listed>> {
  const { code, stdout } = await chatgraph('list', '--data-dir', data, '--json');
  expect(code).toBe(0);
  return Listed.parse(JSON.parse(stdout));
}

async function importJson(
  data: string,
  ...inputs: string[]
): Promise<{ code: number; report: z.infer<typeof Report> }> {
  const { code, stdout } = await chatgraph('import', ...inputs, '--data-dir', data, '-q', '--json');
  return { code, report: Report.parse(JSON.parse(stdout)) };
}

describe('import of a PAM bundle the official SDK wrote', () => {
  let chatgpt: string;
  let claude: string;
  beforeAll(() => {
    expect(existsSync(CLI)).toBe(true);
    const dir = tempDir();
    chatgpt = join(dir, 'chatgpt-pam');
    claude = join(dir, 'claude-pam');
    pamConvert(join(FIXTURES, 'chatgpt', 'kitchen-forks.json'), chatgpt);
    pamConvert(join(FIXTURES, 'claude-ai', 'content-blocks-2025.json'), claude);
  });

  it('keeps platform, ids, branches and times; found by list, search and thread', async () => {
    const data = join(tempDir(), 'data');
    const { code, report } = await importJson(data, chatgpt, claude);
    expect(code).toBe(0);
    expect(report.totals.conversations).toBe(3);
    const listed = await list(data);
    expect(listed.conversations.map((c) => [c.source, c.platformId, c.messages]).sort()).toEqual([
      ['chatgpt', 'c0a1f7e4-0001-4a1c-8e2f-000000007919', 11],
      ['claude-ai', 'e7c1c0nv-0001-4d2b-9c3e-000000104729', 5],
      ['claude-ai', 'e7c1c0nv-0002-4d2b-9c3e-000000209458', 2],
    ]);
    // A PAM id that is a UUID stays the conversation's id.
    expect(listed.conversations.map((c) => c.id)).toContain('c0a1f7e4-0001-4a1c-8e2f-000000007919');
    const search = await chatgraph('search', 'sandwich loaf', '--data-dir', data);
    expect(search.stdout).toContain('Proofing bread in a cold kitchen');
    // thread prints the local date and minute; its JSON keeps the time to the fraction.
    const thread = await chatgraph('thread', 'c0a1f7e4', '--data-dir', data);
    expect(thread.stdout).toContain('I put it in the oven with only the light on?');
    const threadJson = await chatgraph('thread', 'c0a1f7e4', '--json', '--data-dir', data);
    expect(threadJson.stdout).toMatch(/"2025-01-15T11:05:00\.25(0*)Z"/);
    // The two branches of the SDK's file, as it wrote them.
    const source = JSON.parse(
      readFileSync(
        join(chatgpt, 'conversations', 'c0a1f7e4-0001-4a1c-8e2f-000000007919.json'),
        'utf8',
      ),
    ) as { messages: { id: string; children_ids?: string[] }[] };
    const written = JSON.parse(
      readFileSync(
        join(data, 'bundle', 'conversations', 'c0a1f7e4-0001-4a1c-8e2f-000000007919.json'),
        'utf8',
      ),
    ) as { messages: { id: string; children_ids: string[] }[] };
    expect(written.messages.map((m) => [m.id, m.children_ids])).toEqual(
      source.messages.map((m) => [m.id, m.children_ids ?? []]),
    );
    expect(pamValidate(join(data, 'bundle')).status).toBe(0);
  });

  it('a second import of the same bundles duplicates nothing', async () => {
    const data = join(tempDir(), 'data');
    await importJson(data, chatgpt, claude);
    const again = await importJson(data, chatgpt, claude);
    expect(again.code).toBe(0);
    const forced = await chatgraph(
      'import',
      chatgpt,
      claude,
      '--data-dir',
      data,
      '-q',
      '--force',
      '--json',
    );
    const report = Report.parse(JSON.parse(forced.stdout));
    expect(report.written).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect((await list(data)).total).toBe(3);
    expect(readdirSync(join(data, 'bundle', 'conversations'))).toHaveLength(3);
  });

  it('a file that fails the schema is named with what is wrong; the rest goes on (exit 1)', async () => {
    const dir = tempDir();
    const bad = join(dir, 'bad.json');
    const file = JSON.parse(
      readFileSync(
        join(chatgpt, 'conversations', 'c0a1f7e4-0001-4a1c-8e2f-000000007919.json'),
        'utf8',
      ),
    ) as { id: string; messages: { role: string }[] };
    file.id = 'another';
    const first = file.messages[0];
    if (!first) throw new Error('the SDK wrote no message');
    first.role = 'narrator';
    writeFileSync(bad, JSON.stringify(file));
    const data = join(dir, 'data');
    const { code, report } = await importJson(data, claude, bad);
    expect(code).toBe(1);
    expect(report.totals.conversations).toBe(2);
    const problem = report.problems.find((p) => p.code === 'pam-schema');
    expect(problem?.examples[0]?.file).toContain('bad.json');
    expect(problem?.examples[0]?.message).toMatch(
      /not a valid PAM conversation \(messages\.0\.role: /,
    );
  });

  it('reindexes from the bundle alone, and reads back its own PAM JSON Lines', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    await importJson(data, chatgpt, claude);
    const reindexed = await chatgraph('reindex', '--data-dir', data, '-q');
    expect(reindexed.code).toBe(0);
    expect(reindexed.stdout).toContain('re-indexed 3 conversations');
    const search = await chatgraph('search', 'holiday photos', '--data-dir', data);
    expect(search.stdout).toContain('Script to rename holiday photos');
    const out = join(dir, 'jsonl');
    const exported = await chatgraph(
      'export',
      '--format',
      'jsonl',
      '--out',
      out,
      '--data-dir',
      data,
    );
    expect(exported.code).toBe(0);
    const again = join(dir, 'again');
    const { code, report } = await importJson(again, join(out, 'conversations.jsonl'));
    expect(code).toBe(0);
    expect(report.totals.conversations).toBe(3);
    expect((await list(again)).conversations.map((c) => c.id).sort()).toEqual(
      (await list(data)).conversations.map((c) => c.id).sort(),
    );
  });

  it('copies an attachment a bundle holds, found by its path in that bundle', async () => {
    const dir = tempDir();
    const bundle = join(dir, 'bundle');
    const converted = await chatgraph(
      'convert',
      join(FIXTURES, 'claude-ai', 'content-blocks-2025.json'),
      '-o',
      bundle,
      '-q',
    );
    expect(converted.code).toBe(0);
    const pasted = readdirSync(join(bundle, 'attachments', 'text'), { recursive: true })
      .map(String)
      .filter((p) => p.endsWith('.txt'));
    expect(pasted).toHaveLength(1);
    const data = join(dir, 'data');
    expect((await importJson(data, bundle)).code).toBe(0);
    const original = readFileSync(join(bundle, 'attachments', 'text', pasted[0] ?? ''), 'utf8');
    const copied = readdirSync(join(data, 'bundle', 'attachments')).filter((n) =>
      n.endsWith('.txt'),
    );
    expect(copied.map((n) => readFileSync(join(data, 'bundle', 'attachments', n), 'utf8'))).toEqual(
      [original],
    );
  });
});
