// Every coding agent's sessions, found without being told where (issue 39): a home folder laid
// out as the agents leave it is listed by `sources --installed` and imported whole by
// `import --agents`; forks, /branch copies and sub-agents are stored once; the bundle passes
// the official PAM validator and everything is found by its words.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from './support/convert-to-temp.js';
import { buildSqliteFixture } from './support/sqlite-fixtures.js';
import { pamValidate } from './support/pam-sdk.js';
import { chatgraphWith } from './support/run-cli.js';
import { ROOT } from './support/shared.js';

const FIXTURES = join(ROOT, 'test', 'fixtures');

/**
 * Where each fixture goes in the home folder, as the agent itself lays it out: `[fixture
 * (a file or a folder, copied whole), its place below the home folder]`; an agent added
 * later adds its lines here. SQLite stores are built from their SQL (see `SQLITE`).
 */
const LAYOUT: [string, string][] = [
  ['codex/fork-and-subagent', '.codex/sessions/2025/11/03'],
  [
    'codex/rollout-2025-10-29T09-12-04-019a2f3d-1704-7a1b-8c1d-2e3f4a5b6c7d.jsonl',
    '.codex/sessions/2025/10/29/rollout-2025-10-29T09-12-04-019a2f3d-1704-7a1b-8c1d-2e3f4a5b6c7d.jsonl',
  ],
  [
    'codex/rollout-2025-06-14T08-03-27-5c1e8a42-3b9d-4e27-9f61-0d2a7b4c8e15.jsonl',
    '.codex/archived_sessions/rollout-2025-06-14T08-03-27-5c1e8a42-3b9d-4e27-9f61-0d2a7b4c8e15.jsonl',
  ],
  ['gemini-cli/tmp', '.gemini/tmp'],
  ['qwen-code/branch', '.qwen/projects/-home-ada-code-bike-shed/chats'],
  ['cline/xml-tools-2025', '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks'],
  ['cline/native-tools-2026', '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks'],
  [
    'roo-code/globalStorage-2026/rooveterinaryinc.roo-cline/tasks',
    '.config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks',
  ],
  [
    'kilo-code/globalStorage-2025/kilocode.kilo-code/tasks',
    '.config/VSCodium/User/globalStorage/kilocode.kilo-code/tasks',
  ],
  ['claude-code/fork-session', '.claude/projects/-home-maya-projects-seed-swap'],
  [
    'claude-code/recipe-box-session.jsonl',
    '.claude/projects/-home-maya-projects-recipe-box/5e55a001-0001-4e3c-a4d5-000015485863.jsonl',
  ],
  ['aider/bird-feeder', 'code/bird-feeder'],
  ['cursor/agent-transcripts-2026', '.cursor/projects'],
];

/** SQLite fixtures, built into the folder below the home folder their `-- file:` path starts in. */
const SQLITE: [string, string][] = [
  ['cursor/global-state.sql', '.config/Cursor'],
  ['opencode/opencode-db.sql', '.local/share/opencode'],
];

// Variables that would send the agents elsewhere, emptied so only the home folder counts.
const CLEARED = [
  'CLAUDE_CONFIG_DIR',
  'CODEX_HOME',
  'GEMINI_CLI_HOME',
  'QWEN_HOME',
  'QWEN_RUNTIME_DIR',
  'CLINE_DIR',
  'APPDATA',
  'LOCALAPPDATA',
];

let home = '';
let env: Record<string, string> = {};

beforeAll(() => {
  home = tempDir('chatgraph-home-');
  for (const [fixture, place] of LAYOUT) {
    const to = join(home, place);
    mkdirSync(join(to, '..'), { recursive: true });
    cpSync(join(FIXTURES, fixture), to, { recursive: true });
  }
  for (const [fixture, place] of SQLITE)
    buildSqliteFixture(join(FIXTURES, fixture), join(home, place));
  // Windsurf's Cascade conversations: encrypted protobuf, found and reported, never read.
  mkdirSync(join(home, '.codeium', 'windsurf', 'cascade'), { recursive: true });
  writeFileSync(
    join(home, '.codeium', 'windsurf', 'cascade', '4f0e7a2c-1b3d-4e5f-8a9b-0c1d2e3f4a5b.pb'),
    Buffer.from([0x0a, 0x24, 0x9f, 0x11, 0xe3, 0x00, 0x42]),
  );
  env = {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    ...Object.fromEntries(CLEARED.map((name) => [name, ''])),
  };
});

const found = z.array(
  z.object({
    source: z.string(),
    path: z.string(),
    sessions: z.number(),
    unit: z.enum(['session', 'store', 'file']),
    bytes: z.number(),
    readable: z.boolean(),
    reason: z.string().optional(),
  }),
);

describe('chatgraph sources --installed', () => {
  it('lists every agent found in the home folder, with its sessions, size and place', async () => {
    const run = await chatgraphWith(env, 'sources', '--installed', '--json');
    expect(run.code).toBe(0);
    const stores = found.parse(JSON.parse(run.stdout));
    const sessions = (source: string): number =>
      stores.filter((s) => s.source === source).reduce((n, s) => n + s.sessions, 0);
    expect(sessions('codex')).toBe(5);
    expect(sessions('gemini-cli')).toBe(2);
    expect(sessions('qwen-code')).toBe(2);
    expect(sessions('cline')).toBe(2);
    expect(sessions('roo-code')).toBe(1);
    expect(sessions('kilo-code')).toBe(1);
    expect(sessions('claude-code')).toBe(3);
    expect(sessions('aider')).toBe(1);
    expect(sessions('opencode')).toBe(1);
    expect(stores.find((s) => s.source === 'opencode')).toMatchObject({
      unit: 'store',
      path: join(home, '.local', 'share', 'opencode', 'opencode.db'),
    });
    expect(stores.filter((s) => s.source === 'cursor').map((s) => s.path)).toEqual([
      join(home, '.config', 'Cursor', 'User', 'globalStorage', 'state.vscdb'),
      join(home, '.cursor', 'projects'),
    ]);
    for (const store of stores) expect(store.bytes).toBeGreaterThan(0);
    expect(stores.find((s) => s.source === 'aider')?.path).toBe(
      join(home, 'code', 'bird-feeder', '.aider.chat.history.md'),
    );
    const codex = stores.filter((s) => s.source === 'codex').map((s) => s.path);
    expect(codex).toEqual([
      join(home, '.codex', 'sessions'),
      join(home, '.codex', 'archived_sessions'),
    ]);
    const windsurf = stores.find((s) => s.source === 'windsurf');
    expect(windsurf).toMatchObject({ readable: false, sessions: 1 });
    expect(windsurf?.reason).toMatch(/encrypted/);
  });

  it('reads the environment overrides: CODEX_HOME moves Codex', async () => {
    const moved = tempDir('chatgraph-codex-home-');
    cpSync(join(home, '.codex'), moved, { recursive: true });
    const run = await chatgraphWith(
      { ...env, CODEX_HOME: moved },
      'sources',
      '--installed',
      '--json',
    );
    const paths = found
      .parse(JSON.parse(run.stdout))
      .filter((s) => s.source === 'codex')
      .map((s) => s.path);
    expect(paths).toContain(join(moved, 'sessions'));
  });
});

describe('chatgraph import --agents', () => {
  let data = '';
  const query = async (cypher: string): Promise<unknown[]> => {
    const run = await chatgraphWith(env, 'query', cypher, '--data-dir', data, '--json');
    expect(run.code, run.stderr).toBe(0);
    return z.array(z.unknown()).parse(JSON.parse(run.stdout));
  };
  const messagesSaying = async (text: string): Promise<number> =>
    z
      .array(z.object({ n: z.number() }))
      .parse(
        await query(`MATCH (m:Message) WHERE m.content CONTAINS '${text}' RETURN count(m) AS n`),
      )[0]?.n ?? -1;

  beforeAll(async () => {
    data = join(tempDir(), 'data');
    const run = await chatgraphWith(env, 'import', '--agents', '--data-dir', data, '--json');
    expect(run.code, `${run.stderr}${run.stdout.slice(0, 400)}`).toBe(0);
    const report = z
      .object({
        providers: z.record(z.object({ conversations: z.number() })),
        problems: z.array(
          z.object({
            code: z.string(),
            level: z.string(),
            examples: z.array(z.object({ message: z.string() })),
          }),
        ),
      })
      .parse(JSON.parse(run.stdout));
    expect(
      Object.fromEntries(Object.entries(report.providers).map(([k, v]) => [k, v.conversations])),
    ).toEqual({
      codex: 5,
      'gemini-cli': 2,
      'qwen-code': 2,
      cline: 2,
      'roo-code': 1,
      'kilo-code': 1,
      'claude-code': 3,
      aider: 2,
      cursor: 3,
      opencode: 2,
    });
    // Windsurf's store is said, with why it is not read.
    const unreadable = report.problems.find((p) => p.code === 'store-unreadable');
    expect(unreadable?.level).toBe('warning');
    expect(unreadable?.examples[0]?.message).toMatch(
      /1 Windsurf Cascade file .*encrypted protobuf/,
    );
    expect(run.stderr).toMatch(/found codex +4 sessions, \d+ KB {2}.*\.codex\/sessions/);
  }, 120_000);

  it('stores a message a fork, a /branch or a sub-agent copied from its parent once', async () => {
    // Codex: `codex fork` copied the parent's first turn into the fork.
    expect(await messagesSaying('tide table PDF into a CSV')).toBe(1);
    expect(await messagesSaying('one table per month')).toBe(1);
    // Claude Code: --fork-session copied three lines (forkedFrom).
    expect(await messagesSaying('Seven packets expire in 2026')).toBe(1);
    // Qwen Code: /branch copied the first records.
    expect(await messagesSaying('Let me look at the picker first.')).toBe(1);
    // Their own turns are there.
    expect(await messagesSaying('write the tides as iCalendar events')).toBe(1);
    expect(await messagesSaying('sow indoors in January')).toBe(1);
    expect(await messagesSaying('group the paints by colour family')).toBe(1);
  });

  it('links sub-agents to the call that started them, projects to their folders and files', async () => {
    const started = z
      .array(z.object({ source: z.string(), n: z.number() }))
      .parse(
        await query(
          'MATCH (t:ToolCall)-[:STARTED]->(c:Conversation) RETURN c.source AS source, count(*) AS n ORDER BY source',
        ),
      );
    expect(started).toEqual([
      { source: 'codex', n: 1 },
      { source: 'gemini-cli', n: 1 },
      { source: 'opencode', n: 1 },
    ]);
    const projects = z
      .array(z.object({ path: z.string() }))
      .parse(
        await query(
          'MATCH (p:Project)-[:HAS_SESSION]->(:Conversation) RETURN DISTINCT p.path AS path ORDER BY path',
        ),
      )
      .map((p) => p.path);
    expect(projects).toEqual(
      expect.arrayContaining([
        '/home/ada/code/weather-station',
        '/home/ada/code/vegetable-box',
        '/home/ada/code/pantry-app',
        '/Users/ada/projects/choir-rota',
        join(home, 'code', 'bird-feeder'),
      ]),
    );
    const tokens = z
      .array(z.object({ source: z.string(), output: z.number() }))
      .parse(
        await query(
          'MATCH (c:Conversation)-[:HAS_MESSAGE]->(m:Message) WHERE m.output_tokens IS NOT NULL RETURN c.source AS source, sum(m.output_tokens) AS output ORDER BY source',
        ),
      );
    expect(tokens.map((t) => t.source)).toEqual([
      'aider',
      'claude-code',
      'cline',
      'codex',
      'cursor',
      'gemini-cli',
      'opencode',
      'qwen-code',
      'roo-code',
    ]);
    // The Codex fork counts only its own turn's 150 output tokens, not its parent's 180 again.
    const fork = z
      .array(z.object({ output: z.number() }))
      .parse(
        await query(
          "MATCH (c:Conversation {conversation_id: '019a4a09-fd40-7a7b-5c6d-7e8f9a0b1c2d'})-[:HAS_MESSAGE]->(m:Message) RETURN sum(m.output_tokens) AS output",
        ),
      );
    expect(fork).toEqual([{ output: 150 }]);
  });

  it('finds each agent’s sessions by their words, context turns too, and passes the official validator', async () => {
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
      return z
        .object({ conversations: z.array(z.object({ source: z.string() })) })
        .parse(JSON.parse(run.stdout))
        .conversations.map((c) => c.source);
    };
    expect(await search('tipping-bucket')).toEqual(['codex']);
    expect(await search('Tuesday deliveries')).toContain('gemini-cli');
    expect(await search('paints.json')).toContain('qwen-code');
    expect(await search('midnight expired')).toContain('cline');
    expect(await search('altos Sunday')).toEqual(['roo-code']);
    expect(await search('under-fives')).toEqual(['kilo-code']);
    expect(await search('tare')).toContain('aider');
    expect(await search('seed packets')).toContain('claude-code');
    // The session's own context (AGENTS.md, environment details) is searchable, though hidden.
    expect(await search('pytest sensor drivers')).toEqual(['codex']);
    expect(await search('VSCode Open Tabs')).toContain('cline');
    const { status, output } = pamValidate(join(data, 'bundle', 'memory-store.json'));
    expect(output).not.toMatch(/error/i);
    expect(status).toBe(0);
  });
});

describe('chatgraph import PATH, for one agent’s file or folder', () => {
  const single = [
    'codex/rollout-2025-10-29T09-12-04-019a2f3d-1704-7a1b-8c1d-2e3f4a5b6c7d.jsonl',
    'codex/rollout-2025-04-19-b7d2c9e0-1a4f-4c3b-8e5d-6f7a8b9c0d1e.json',
    'gemini-cli/tmp/vegetable-box/chats',
    'gemini-cli/session-2025-09-18T08-30-7f3e2a91.json',
    'qwen-code/session-2025-08-05T21-40-5d2a9c71.json',
    'qwen-code/c41d2e7a-9b3f-4a6c-8e15-72f0a9d3b8c4.jsonl',
    // A task folder holding only api_conversation_history.json (was refused as "cut off").
    'cline/native-tools-2026/1771840021337',
    'cline/native-tools-2026/1771840021337/api_conversation_history.json',
    'aider/bird-feeder/.aider.chat.history.md',
  ];

  it.each(single)('imports %s with exit 0', async (path) => {
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
      .object({ totals: z.object({ conversations: z.number(), messages: z.number() }) })
      .parse(JSON.parse(run.stdout));
    expect(report.totals.conversations).toBeGreaterThan(0);
    expect(pamValidate(join(data, 'bundle', 'memory-store.json')).status).toBe(0);
  });

  it('times Aider’s inputs from the input history beside the file given alone', async () => {
    const data = join(tempDir(), 'data');
    await chatgraphWith(
      {},
      'import',
      join(FIXTURES, 'aider/bird-feeder/.aider.chat.history.md'),
      '--data-dir',
      data,
      '-q',
    );
    const run = await chatgraphWith(
      {},
      'query',
      "MATCH (m:Message) WHERE m.content STARTS WITH 'why does the tare drift' RETURN m.created_at AS at",
      '--data-dir',
      data,
      '--json',
    );
    expect(JSON.parse(run.stdout)).toEqual([{ at: '2025-03-15T18:02:31.880100Z' }]);
  });

  it('says what it found of a store it cannot read, and why, with exit 2 when that is all', async () => {
    const cascade = join(tempDir(), '.codeium', 'windsurf', 'cascade');
    mkdirSync(cascade, { recursive: true });
    writeFileSync(join(cascade, 'a1.pb'), Buffer.alloc(2048, 7));
    writeFileSync(join(cascade, 'b2.pb'), Buffer.alloc(1024, 9));
    const run = await chatgraphWith({}, 'import', cascade, '--data-dir', join(tempDir(), 'data'));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /found 2 Windsurf Cascade files \(3 KB, first cascade\/a1\.pb\) that chatgraph cannot read: Windsurf keeps its Cascade conversations as encrypted protobuf/,
    );
    expect(run.stderr).not.toMatch(/0 sessions|not a chat export/);
  });
});

describe('an agent’s log that is damaged', () => {
  const rollout = join(
    FIXTURES,
    'codex/rollout-2025-06-14T08-03-27-5c1e8a42-3b9d-4e27-9f61-0d2a7b4c8e15.jsonl',
  );

  it('is read but for a line that is not JSON, named by its line, with exit 1 (text was lost)', async () => {
    const lines = readFileSync(rollout, 'utf8').split('\n');
    lines.splice(4, 0, '{"type":"message","role":"user","content":[{"type":"inpu');
    const dir = tempDir();
    const damaged = join(
      dir,
      'rollout-2025-06-14T08-03-27-5c1e8a42-3b9d-4e27-9f61-0d2a7b4c8e15.jsonl',
    );
    writeFileSync(damaged, lines.join('\n'));
    const run = await chatgraphWith(
      {},
      'import',
      damaged,
      '--data-dir',
      join(dir, 'data'),
      '--json',
    );
    expect(run.code).toBe(1);
    const report = z
      .object({
        totals: z.object({ messages: z.number() }),
        problems: z.array(
          z.object({
            code: z.string(),
            examples: z.array(z.object({ record: z.string().optional() })),
          }),
        ),
      })
      .parse(JSON.parse(run.stdout));
    expect(report.problems.find((p) => p.code === 'malformed-line')?.examples[0]?.record).toBe(
      'line 5',
    );
    expect(report.totals.messages).toBe(7);
  });

  it('is read whole when only its last line is cut (the agent still writing), with exit 0', async () => {
    const dir = tempDir();
    const growing = join(
      dir,
      'rollout-2025-06-14T08-03-27-5c1e8a42-3b9d-4e27-9f61-0d2a7b4c8e15.jsonl',
    );
    writeFileSync(
      growing,
      `${readFileSync(rollout, 'utf8')}{"type":"message","role":"assistant","content":[{"type":"output_te`,
    );
    const run = await chatgraphWith(
      {},
      'import',
      growing,
      '--data-dir',
      join(dir, 'data'),
      '--json',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/session-being-written/);
  });
});
