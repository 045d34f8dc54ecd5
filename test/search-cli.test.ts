import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { memoryIo } from '../src/cli/cli-io.js';
import { runCli } from '../src/cli/run-cli.js';
import { layoutOf } from '../src/folder/layout.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { tempDir } from './support/convert-to-temp.js';
import { searchBatches } from './support/search-fixtures.js';
import { ROOT } from './support/shared.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);

async function dataWithSearchFixtures(): Promise<string> {
  const data = join(tempDir(), 'data');
  const store = SqliteStore.open(layoutOf(data).store);
  await store.upsert(searchBatches());
  await store.close();
  return data;
}

const search = async (data: string, ...args: string[]): Promise<string> =>
  (await run(process.execPath, [CLI, 'search', '--data-dir', data, ...args])).stdout;
const perMessage = (data: string, ...args: string[]): Promise<string> =>
  search(data, '--per-message', ...args);

describe('chatgraph search', () => {
  it('with --per-message: pages with --offset, marks attachment hits, and prints a hint when nothing matches', async () => {
    const data = await dataWithSearchFixtures();
    const first = await perMessage(data, 'zeppelin', '--limit', '10');
    expect(first).toContain('(hits 1–10 of 25: --offset 10 for the next ones)');
    const last = await perMessage(data, 'zeppelin', '--limit', '10', '--offset', '20');
    expect(last).toContain('zeppelin');
    expect(last).not.toContain('--offset 30');
    expect(await perMessage(data, 'zeppelin', '--offset', '25')).toBe(
      'no more hits: 25 in all, all shown before --offset 25\n',
    );
    expect(await perMessage(data, 'pumpernickel')).toContain('Bread notes  📎 recipe.txt  (user');
    expect(await search(data, 'focacia', 'starter')).toBe(
      'no match for focacia starter; did you mean: focaccia starter\n',
    );
    // A -word needs no quotes; a search of exclusions only is a one-line error.
    expect(await search(data, 'focaccia', '-levain')).toContain('My «focaccia» starter');
    await expect(search(data, '--sorce', 'x')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown option --sorce') as unknown,
    });
    await expect(search(data, '-levain')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'nothing to search for: NOT and -word only leave words out',
      ) as unknown,
    });
  });

  it('with --per-message: keeps the JSON shape and adds mode, offset, attachment and why', async () => {
    const data = await dataWithSearchFixtures();
    const parsed = JSON.parse(
      await perMessage(data, 'decorators OR pumpernickel', '--format', 'json', '--offset', '1'),
    ) as Record<string, unknown> & { hits: Record<string, unknown>[] };
    expect(parsed).toMatchObject({ mode: 'keyword', matches: 2, offset: 1, matchesCapped: false });
    expect(parsed.hits).toHaveLength(1);
    const [hit] = parsed.hits;
    expect(Object.keys(hit ?? {}).sort()).toEqual(
      [
        'conversationId',
        'createdAt',
        'messageId',
        'platformConversationId',
        'role',
        'score',
        'snippet',
        'source',
        'title',
        'why',
        ...(hit?.attachment ? ['attachment'] : []),
      ].sort(),
    );
    expect(hit?.why).toEqual({ keyword: { rank: 2 } });
    expect(hit?.title).toBe('Bread notes');
  });

  it('answers one line per conversation with its best passage, paged by conversation', async () => {
    const data = await dataWithSearchFixtures();
    const zeppelin = await search(data, 'zeppelin');
    expect(zeppelin.split('\n').filter((l) => l.includes('Airships'))).toHaveLength(1);
    expect(zeppelin).toContain('(1 conversation has the word)');
    expect(zeppelin).toMatch(
      /Airships {2}\(conversation kw-many; words; 24 more in this conversation\)/,
    );
    expect(zeppelin).toMatch(/\n {4}«zeppelin» note \d+.*\(user, message z\d+\)/);
    const both = await search(data, 'focaccia OR marathon OR zeppelin', '--limit', '2');
    expect(both.split('\n').filter((l) => l.startsWith('2024-'))).toHaveLength(2);
    expect(both).toContain('(conversations 1–2: --offset 2 for the next ones)');
    const next = await search(
      data,
      'focaccia OR marathon OR zeppelin',
      '--limit',
      '2',
      '--offset',
      '2',
    );
    expect(next.split('\n').filter((l) => l.startsWith('2024-'))).toHaveLength(1);
    expect(next).toContain('(conversations 3–3)');
    expect(await search(data, 'pumpernickel')).toContain('(📎 recipe.txt of message m3)');
  });

  it('gives conversations in JSON: best passage with its message id, more, passages', async () => {
    const data = await dataWithSearchFixtures();
    const parsed = JSON.parse(await search(data, 'zeppelin OR levain', '--format', 'json')) as {
      conversations: Record<string, unknown>[];
    } & Record<string, unknown>;
    expect(parsed).toMatchObject({ mode: 'keyword', offset: 0, memories: [], more: false });
    expect(parsed.conversations.map((c) => c['conversationId']).sort()).toEqual([
      'kw-bread',
      'kw-many',
    ]);
    const airships = parsed.conversations.find((c) => c['title'] === 'Airships');
    const bread = parsed.conversations.find((c) => c['title'] === 'Bread notes');
    expect(Object.keys(airships ?? {}).sort()).toEqual(
      [
        'best',
        'conversationId',
        'createdAt',
        'more',
        'passages',
        'platformConversationId',
        'score',
        'source',
        'title',
        'why',
      ].sort(),
    );
    expect(airships).toMatchObject({
      title: 'Airships',
      more: 24,
      why: { keyword: {} },
      best: {
        kind: 'message',
        role: 'user',
        snippet: expect.stringContaining('«zeppelin»') as unknown,
      },
    });
    expect((airships?.['passages'] as unknown[]).length).toBe(3);
    expect(bread).toMatchObject({
      more: 0,
      best: { messageId: 'kw-bread:m2', snippet: expect.stringContaining('«levain»') as unknown },
    });
  });

  it('on a terminal, fits its lines to the terminal’s width and marks the matches in bold', async () => {
    const data = await dataWithSearchFixtures();
    const onTerminal = async (columns: number): Promise<string[]> => {
      const io = { ...memoryIo(), stdoutIsTTY: true, terminal: { columns, rows: 24 } };
      expect(
        await runCli(['node', 'chatgraph', 'search', 'zeppelin', '--data-dir', data], io),
      ).toBe(0);
      return io.stdout;
    };
    const piped = (await search(data, 'zeppelin')).trimEnd().split('\n');
    // Written to a pipe, a hit's lines are wider than a narrow terminal.
    expect(Math.max(...piped.map((line) => line.length))).toBeGreaterThan(60);
    const lines = await onTerminal(60);
    const bold = new RegExp(String.raw`\u001b\[(?:1|22)m`, 'g');
    for (const line of lines) expect(line.replace(bold, '').length).toBeLessThanOrEqual(60);
    expect(lines.join('\n')).toContain('\x1b[1mzeppelin\x1b[22m');
    // The same words as in a pipe, in the same order; only where the lines break differs.
    const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);
    expect(words(lines.join(' ').replace(bold, ''))).toEqual(
      words(piped.join(' ').replace(/[«»]/g, '')),
    );
    // Wide enough, a line is as a pipe has it, its gaps of two spaces kept.
    expect((await onTerminal(400)).map((line) => line.replace(bold, ''))).toEqual(
      piped.map((line) => line.replace(/[«»]/g, '')),
    );
  });
});
