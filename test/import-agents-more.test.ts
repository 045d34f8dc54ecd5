// The second part of issue 39's coding agents, found without being told where: a home folder
// laid out as GitHub Copilot CLI, Mistral Vibe, pi, VS Code's chat, Amp and Continue leave it
// is listed by `sources --installed`, imported whole by `import --agents`, every agent found by
// its words, and the bundle passes the official PAM validator.
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from './support/convert-to-temp.js';
import { pamValidate } from './support/pam-sdk.js';
import { chatgraphWith } from './support/run-cli.js';
import { ROOT } from './support/shared.js';

const FIXTURES = join(ROOT, 'test', 'fixtures');

/** `[fixture (copied whole), its place below the home folder]`, as each agent lays it out. */
const LAYOUT: [string, string][] = [
  ['copilot-cli/session-state-2026', '.copilot/session-state'],
  ['mistral-vibe/logs-2026', '.vibe/logs/session'],
  ['pi/sessions-v3', '.pi/agent/sessions'],
  ['vscode-copilot-chat/workspaceStorage-2026', '.config/Code/User/workspaceStorage'],
  ['amp/local-share-2026/threads', '.local/share/amp/threads'],
  [
    'amp/vscode-threads3-2025/threads3',
    '.config/VSCodium/User/globalStorage/sourcegraph.amp/threads3',
  ],
  ['continue/sessions-2026', '.continue/sessions'],
];

// Variables that would send the agents elsewhere, emptied so only the home folder counts.
const CLEARED = [
  'COPILOT_HOME',
  'VIBE_HOME',
  'PI_CODING_AGENT_DIR',
  'OMP_CODING_AGENT_DIR',
  'CONTINUE_GLOBAL_DIR',
  'APPDATA',
  'LOCALAPPDATA',
];

const SOURCES = ['copilot-cli', 'mistral-vibe', 'pi', 'vscode-copilot-chat', 'amp', 'continue'];

let home = '';
let env: Record<string, string> = {};

beforeAll(() => {
  home = tempDir('chatgraph-home-more-');
  for (const [fixture, place] of LAYOUT) {
    const to = join(home, place);
    mkdirSync(join(to, '..'), { recursive: true });
    cpSync(join(FIXTURES, fixture), to, { recursive: true });
  }
  env = {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    ...Object.fromEntries(CLEARED.map((name) => [name, ''])),
  };
});

const found = z.array(
  z.object({ source: z.string(), path: z.string(), sessions: z.number(), readable: z.boolean() }),
);

describe('chatgraph sources --installed, for the second part’s agents', () => {
  it('finds each agent in its own place', async () => {
    const run = await chatgraphWith(env, 'sources', '--installed', '--json');
    expect(run.code, run.stderr).toBe(0);
    const stores = found.parse(JSON.parse(run.stdout));
    const at = (source: string): string[] =>
      stores.filter((s) => s.source === source).map((s) => s.path);
    expect(at('amp')).toEqual([
      join(home, '.local', 'share', 'amp', 'threads'),
      join(home, '.config', 'VSCodium', 'User', 'globalStorage', 'sourcegraph.amp', 'threads3'),
    ]);
    expect(at('continue')).toEqual([join(home, '.continue', 'sessions')]);
    const sessions = (source: string): number =>
      stores.filter((s) => s.source === source).reduce((n, s) => n + s.sessions, 0);
    // sessions.json is Continue's list of sessions, not one of them.
    expect(sessions('continue')).toBe(2);
    expect(sessions('amp')).toBe(3);
    for (const source of SOURCES) {
      expect(sessions(source), source).toBeGreaterThan(0);
      expect(stores.filter((s) => s.source === source).every((s) => s.readable)).toBe(true);
    }
  });
});

describe('chatgraph import --agents, for the second part’s agents', () => {
  let data = '';

  beforeAll(async () => {
    data = join(tempDir(), 'data');
    const run = await chatgraphWith(env, 'import', '--agents', '--data-dir', data, '--json');
    expect(run.code, `${run.stderr}${run.stdout.slice(0, 400)}`).toBe(0);
    const report = z
      .object({ providers: z.record(z.object({ conversations: z.number() })) })
      .parse(JSON.parse(run.stdout));
    const counts = Object.fromEntries(
      Object.entries(report.providers).map(([k, v]) => [k, v.conversations]),
    );
    expect(counts).toMatchObject({ amp: 3, continue: 2 });
    for (const source of SOURCES) expect(counts[source], source).toBeGreaterThan(0);
  }, 120_000);

  it('finds each agent’s sessions by their words, context too, and passes the validator', async () => {
    const search = async (words: string): Promise<string[]> => {
      const run = await chatgraphWith(
        env,
        'search',
        words,
        '--mode',
        'keyword',
        '--data-dir',
        data,
        '--format',
        'json',
      );
      expect(run.code, run.stderr).toBe(0);
      return z
        .object({ conversations: z.array(z.object({ source: z.string() })) })
        .parse(JSON.parse(run.stdout))
        .conversations.map((c) => c.source);
    };
    expect(await search('high-water times')).toContain('copilot-cli');
    expect(await search('greenhouse monitor')).toContain('mistral-vibe');
    expect(await search('knots chart label')).toContain('pi');
    expect(await search('singers holiday')).toContain('vscode-copilot-chat');
    expect(await search('wind column parser')).toContain('amp');
    expect(await search('servings')).toEqual(['amp']);
    expect(await search('NaN quiz questions')).toEqual(['continue']);
    // Amp's summary and a file Continue's person attached are the session's context: found.
    expect(await search('third column as wind speed')).toContain('amp');
    expect(await search('high water on 30 March')).toContain('continue');
    const { status, output } = pamValidate(join(data, 'bundle', 'memory-store.json'));
    expect(output).not.toMatch(/error/i);
    expect(status).toBe(0);
  });

  it('keeps each reply’s tokens and links the tools’ files to their projects', async () => {
    const run = await chatgraphWith(
      env,
      'query',
      "MATCH (c:Conversation)-[:HAS_MESSAGE]->(m:Message) WHERE c.source IN ['amp', 'continue'] AND m.output_tokens IS NOT NULL RETURN c.source AS source, sum(m.output_tokens) AS output, sum(m.cache_read_tokens) AS cached ORDER BY source",
      '--data-dir',
      data,
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    // Amp: 6 replies of the main thread, 2 of the handoff, 3 of the VS Code thread; Continue:
    // the 2026 session's 3 replies with usage (the 2025 one counted none).
    expect(JSON.parse(run.stdout)).toEqual([
      {
        source: 'amp',
        output: 96 + 188 + 41 + 63 + 74 + 7 + 120 + 22 + 52 + 140 + 30,
        cached: 5400 + 5660 + 5970 + 6390 + 6400 + 5300,
      },
      { source: 'continue', output: 140 + 96 + 88, cached: 6000 + 8000 + 8600 },
    ]);
    const files = await chatgraphWith(
      env,
      'query',
      "MATCH (c:Conversation)-[*1..3]->(f:File) WHERE c.source IN ['amp', 'continue'] RETURN DISTINCT f.path AS path ORDER BY path",
      '--data-dir',
      data,
      '--json',
    );
    expect(files.code, files.stderr).toBe(0);
    expect(
      z
        .array(z.object({ path: z.string() }))
        .parse(JSON.parse(files.stdout))
        .map((f) => f.path),
    ).toEqual(
      expect.arrayContaining([
        '/home/rosa/code/harbour-log/src/parse-log.ts',
        '/Users/mika/Projects/recipe-scaler/scale.py',
        '/home/ines/projects/tide-tables/src/tides.ts',
      ]),
    );
  });
});

describe('chatgraph import PATH, for one file of the second part’s agents', () => {
  const single: [string, number][] = [
    ['amp/local-share-2026/threads/T-019a7c2e-5b1d-7e40-9c3a-2f6d8e1b4a90.json', 1],
    ['amp/vscode-threads3-2025', 1],
    // Alone, without sessions.json beside it: read, its messages timed by the file.
    ['continue/sessions-2026/f41c2b3a-7d6e-4e5f-9a8b-1c2d3e4f5a6b.json', 1],
    ['continue/sessions-2024', 1],
  ];

  it.each(single)('imports %s with exit 0', async (path, conversations) => {
    const data = join(tempDir(), 'data');
    const run = await chatgraphWith(
      {},
      'import',
      join(FIXTURES, path),
      '--data-dir',
      data,
      '--json',
    );
    expect(run.code, run.stderr).toBe(0);
    const report = z
      .object({ totals: z.object({ conversations: z.number() }) })
      .parse(JSON.parse(run.stdout));
    expect(report.totals.conversations).toBe(conversations);
    expect(pamValidate(join(data, 'bundle', 'memory-store.json')).status).toBe(0);
  });
});
