// `chatgraph watch` with no folder follows every coding agent found in the home folder, each as
// its agent writes (issue 44): a Codex rollout appended to (a line written in two parts, each
// exchange written twice, as `response_item` and `event_msg`), a Cline task's history rewritten
// through a temporary file and a rename, and OpenCode's SQLite store written in WAL mode by a
// process that holds it open. Each change is found by `chatgraph search`, stored once, and the
// agent's store is never written; a session its agent deletes stays; after kill -9 and a
// restart the data folder holds what one clean `import --agents` makes.
import { createHash } from 'node:crypto';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraphWith } from './support/run-cli.js';
import { graphOf, messagesOf } from './support/session-log.js';
import { ROOT } from './support/shared.js';
import { buildSqliteFixture } from './support/sqlite-fixtures.js';
import { startStoreWriter, type StoreWriter } from './support/sqlite-writer.js';
import { startCli, type WatchProcess } from './support/watch-cli.js';

const FIXTURES = join(ROOT, 'test', 'fixtures');
const CODEX_ID = '019a2f3d-1704-7a1b-8c1d-2e3f4a5b6c7d';
const CODEX_FILE = `rollout-2025-10-29T09-12-04-${CODEX_ID}.jsonl`;
const CLINE_TASK = '1771840021337';

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

interface Home {
  env: Record<string, string>;
  codex: string;
  cline: string;
  opencode: string;
}

// A home folder with one agent of each kind, laid out as each agent leaves it.
function makeHome(): Home {
  const home = tempDir('chatgraph-home-');
  const codexDir = join(home, '.codex', 'sessions', '2025', '10', '29');
  mkdirSync(codexDir, { recursive: true });
  const codex = join(codexDir, CODEX_FILE);
  // The fixture ends in a line cut off (Codex killed mid-write): the whole lines only, as a
  // running Codex leaves its rollout between two writes.
  const rollout = readFileSync(join(FIXTURES, 'codex', CODEX_FILE), 'utf8');
  writeFileSync(codex, rollout.slice(0, rollout.lastIndexOf('\n') + 1));
  const tasks = join(home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev');
  mkdirSync(join(tasks, 'tasks'), { recursive: true });
  cpSync(
    join(FIXTURES, 'cline', 'native-tools-2026', CLINE_TASK),
    join(tasks, 'tasks', CLINE_TASK),
    {
      recursive: true,
    },
  );
  const cline = join(tasks, 'tasks', CLINE_TASK, 'api_conversation_history.json');
  const opencode = buildSqliteFixture(
    join(FIXTURES, 'opencode', 'opencode-db.sql'),
    join(home, '.local', 'share', 'opencode'),
  );
  const rest = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && !e[0].startsWith('XDG_'),
    ),
  );
  const env = {
    ...rest,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    ...Object.fromEntries(CLEARED.map((name) => [name, ''])),
  };
  return { env, codex, cline, opencode };
}

// One Codex exchange as Codex writes it: each side twice (`response_item` and `event_msg`).
function codexTurn(prompt: string, answer: string, second: number): string {
  const at = (ms: number) => new Date(Date.UTC(2025, 9, 29, 10, 0, second, ms)).toISOString();
  return [
    {
      timestamp: at(0),
      type: 'turn_context',
      payload: {
        turn_id: `t-${second}`,
        cwd: '/home/ada/code/weather-station',
        model: 'gpt-5-codex',
      },
    },
    {
      timestamp: at(1),
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] },
    },
    {
      timestamp: at(2),
      type: 'event_msg',
      payload: { type: 'user_message', message: prompt, images: [] },
    },
    { timestamp: at(3), type: 'event_msg', payload: { type: 'agent_message', message: answer } },
    {
      timestamp: at(4),
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: answer }],
      },
    },
  ]
    .map((line) => `${JSON.stringify(line)}\n`)
    .join('');
}

// Cline writes a task's history whole: to a temporary file, then renamed over the old one.
function clineAdd(path: string, prompt: string, answer: string, ts: number): void {
  const history = z.array(z.unknown()).parse(JSON.parse(readFileSync(path, 'utf8')));
  history.push(
    { role: 'user', ts, content: [{ type: 'text', text: `<feedback>\n${prompt}\n</feedback>` }] },
    { role: 'assistant', ts: ts + 1000, content: [{ type: 'text', text: answer }] },
  );
  const temp = `${path}.tmp-${ts}`;
  writeFileSync(temp, JSON.stringify(history, null, 2));
  renameSync(temp, path);
}

// An OpenCode exchange: a user message and its text part, then the answer, as rows.
function opencodeTurn(n: number, prompt: string, answer: string): string {
  const t = 1780001000000 + n * 10000;
  const q = (s: string) => s.replace(/'/g, "''");
  return `BEGIN;
INSERT INTO message VALUES ('msg_live_u${n}', 'ses_main01', ${t}, ${t}, '{"role":"user","time":{"created":${t}},"agent":"build","model":{"providerID":"anthropic","modelID":"claude-sonnet-4-5"}}');
INSERT INTO part VALUES ('prt_live_u${n}', 'msg_live_u${n}', 'ses_main01', ${t}, ${t}, '${q(JSON.stringify({ type: 'text', text: prompt }))}');
INSERT INTO message VALUES ('msg_live_a${n}', 'ses_main01', ${t + 1000}, ${t + 2000}, '{"role":"assistant","time":{"created":${t + 1000},"completed":${t + 2000}},"parentID":"msg_live_u${n}","modelID":"claude-sonnet-4-5","providerID":"anthropic","mode":"build","agent":"build","path":{"cwd":"/home/ana/code/tides","root":"/home/ana/code/tides"},"cost":0.001,"tokens":{"input":10,"output":5,"reasoning":0,"cache":{"read":0,"write":0}},"finish":"stop"}');
INSERT INTO part VALUES ('prt_live_a${n}', 'msg_live_a${n}', 'ses_main01', ${t + 1000}, ${t + 2000}, '${q(JSON.stringify({ type: 'text', text: answer }))}');
UPDATE session SET time_updated = ${t + 2000} WHERE id = 'ses_main01';
COMMIT;`;
}

const Imported = z.object({
  kind: z.literal('imported'),
  file: z.string(),
  conversations: z.array(z.object({ id: z.string(), messages: z.number() })),
});

// The conversation ids a watch imported from a file, as its JSON events said.
function idsFrom(w: WatchProcess, file: string): string[] {
  const ids = new Set<string>();
  for (const line of w.lines) {
    const event = Imported.safeParse(safeJson(line));
    if (event.success && event.data.file === file)
      for (const c of event.data.conversations) ids.add(c.id);
  }
  return [...ids];
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

// How many times a text is among the messages of the conversations.
async function timesIn(data: string, ids: readonly string[], text: string): Promise<number> {
  let n = 0;
  for (const id of ids) n += (await messagesOf(data, id)).filter((m) => m.includes(text)).length;
  return n;
}

async function searchFinds(
  env: Record<string, string>,
  data: string,
  word: string,
): Promise<boolean> {
  const run = await chatgraphWith(env, 'search', word, '--data-dir', data, '--json');
  return run.code === 0 && run.stdout.includes(word);
}

// The sources of the conversations `list --gone` shows (kept only in the data folder).
async function goneSources(data: string): Promise<string[]> {
  const run = await chatgraphWith(home.env, 'list', '--gone', '--json', '--data-dir', data);
  expect(run.code, run.stderr).toBe(0);
  const listed = z
    .object({ conversations: z.array(z.object({ source: z.string() })) })
    .parse(JSON.parse(run.stdout));
  return [...new Set(listed.conversations.map((c) => c.source))].sort();
}

// A promise that must settle within `ms`, or the test fails saying so.
async function within<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`not seen within ${ms} ms`));
    }, ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

function digest(path: string): string {
  const hash = createHash('sha256');
  for (const suffix of ['', '-wal', '-shm'])
    if (existsSync(path + suffix)) hash.update(readFileSync(path + suffix));
  return hash.digest('hex');
}

const Graph = z.object({
  graphs: z.array(z.object({ nodes: z.array(z.string()), edges: z.array(z.string()) })),
  counts: z.object({
    nodes: z.record(z.string(), z.number()),
    edges: z.record(z.string(), z.number()),
  }),
  imports: z.array(z.object({ id: z.string(), checksum: z.string(), sourceFile: z.string() })),
});

/**
 * A data folder's graph with a SQLite store's Imports made one. `watch` writes each session of
 * a store as it changes, under the checksum of that session's record (its other sessions are not
 * written again); one `import` names the whole store file's checksum for all of them. The rest
 * (every node and edge of every conversation) must be the same.
 */
function storeImportsAsOne(graph: unknown, store: string): unknown {
  const parsed = Graph.parse(graph);
  const checksums = parsed.imports.filter((i) => i.sourceFile === store).map((i) => i.checksum);
  const swap = (text: string): string =>
    checksums.reduce((t, c) => t.split(c).join(`sha256:${store}`), text);
  const imports = [
    ...new Map(
      parsed.imports.map((i) => {
        const id = swap(i.id);
        return [id, { ...i, id, checksum: swap(i.checksum) }] as const;
      }),
    ).values(),
  ].sort((a, b) => (a.id < b.id ? -1 : 1));
  return {
    graphs: parsed.graphs.map((g) => ({
      nodes: g.nodes.map(swap).sort(),
      edges: g.edges.map(swap).sort(),
    })),
    counts: { ...parsed.counts, nodes: { ...parsed.counts.nodes, Import: imports.length } },
    imports,
  };
}

const running: WatchProcess[] = [];
const writers: StoreWriter[] = [];
let home: Home;
beforeEach(() => {
  home = makeHome();
});
afterEach(async () => {
  for (const w of running.splice(0)) await w.stop('SIGKILL');
  for (const writer of writers.splice(0)) await writer.kill();
});

function watch(data: string, extra: string[] = []): WatchProcess {
  const w = startCli(['watch', '--data-dir', data, '--json', ...extra], home.env);
  running.push(w);
  return w;
}

const event = (kind: string, file: string) =>
  new RegExp(`"kind":"${kind}".*"file":"${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`);

describe('chatgraph watch follows every coding agent', () => {
  it('sees a Codex append, a Cline rewrite and an OpenCode WAL write live, each stored once, the store untouched', async () => {
    const data = tempDir();
    const writer = await startStoreWriter(home.opencode, 'wal');
    writers.push(writer);
    const w = watch(data);
    const ready = await w.waitFor(/"kind":"ready"/);
    const agents = z
      .object({ agents: z.array(z.object({ source: z.string(), how: z.array(z.string()) })) })
      .parse(JSON.parse(ready)).agents;
    expect(Object.fromEntries(agents.map((a) => [a.source, a.how]))).toMatchObject({
      codex: ['append'],
      cline: ['rewrite'],
      opencode: ['sqlite'],
    });

    // Codex: a turn appended, its first line in two writes (the cut-off part waits).
    let at = w.lines.length;
    const turn = codexTurn('why does the zephyrquokka gauge drift', 'the quokkanswer is heat', 30);
    appendFileSync(home.codex, turn.slice(0, 150));
    appendFileSync(home.codex, turn.slice(150));
    await w.waitFor(event('imported', home.codex), at);
    expect(await searchFinds(home.env, data, 'zephyrquokka')).toBe(true);
    const codexIds = idsFrom(w, home.codex);
    expect(await timesIn(data, codexIds, 'why does the zephyrquokka gauge drift')).toBe(1);
    expect(await timesIn(data, codexIds, 'the quokkanswer is heat')).toBe(1);

    // Cline: the history rewritten whole through a rename.
    at = w.lines.length;
    clineAdd(home.cline, 'and the tramwombat platform', 'wombatreply: platform 3', 1771840100000);
    await w.waitFor(event('imported', home.cline), at);
    expect(await searchFinds(home.env, data, 'tramwombat')).toBe(true);
    const clineIds = idsFrom(w, home.cline);
    expect(await timesIn(data, clineIds, 'tramwombat')).toBe(1);
    expect(await timesIn(data, clineIds, 'wombatreply')).toBe(1);
    // Rewritten again: each later rename is seen as it happens too (Node's recursive watch on
    // Linux loses a file after its first rename; without the folder's own watch this waited for
    // the re-scan a minute later).
    for (const [n, word] of ['koalatram', 'emutram'].entries()) {
      at = w.lines.length;
      clineAdd(home.cline, `then the ${word} stop`, `reply ${n}`, 1771840110000 + n * 10000);
      await within(10_000, w.waitFor(event('imported', home.cline), at));
    }
    expect(await timesIn(data, clineIds, 'emutram')).toBe(1);

    // OpenCode: rows committed to the WAL by a process that keeps the store open.
    at = w.lines.length;
    await writer.exec(opencodeTurn(1, 'round the tidenumbat heights', 'numbatanswer: two places'));
    await w.waitFor(event('imported', home.opencode), at);
    expect(await searchFinds(home.env, data, 'tidenumbat')).toBe(true);
    const opencodeIds = idsFrom(w, home.opencode);
    expect(await timesIn(data, opencodeIds, 'tidenumbat')).toBe(1);
    expect(await timesIn(data, opencodeIds, 'numbatanswer')).toBe(1);
    // Read only: after the watcher read it, the store's files are byte for byte as the agent left them.
    const before = digest(home.opencode);
    at = w.lines.length;
    await writer.exec(opencodeTurn(2, 'and the tidebilby rows', 'bilbyanswer: kept'));
    const after = digest(home.opencode);
    await w.waitFor(event('imported', home.opencode), at);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(digest(home.opencode)).toBe(after);
    expect(after).not.toBe(before);
    expect(await timesIn(data, opencodeIds, 'tidebilby')).toBe(1);
    // The earlier exchanges are still there once each.
    expect(await timesIn(data, opencodeIds, 'tidenumbat')).toBe(1);
    expect(await timesIn(data, codexIds, 'zephyrquokka')).toBe(1);

    // Deleted by their agents: kept whole here, and listed as kept only here.
    expect(await goneSources(data)).toEqual([]);
    const codexMessages = await messagesOf(data, codexIds[0] ?? '');
    at = w.lines.length;
    rmSync(home.codex);
    rmSync(join(home.cline, '..'), { recursive: true });
    await w.waitFor(event('gone', home.codex), at);
    await w.waitFor(event('gone', home.cline), at);
    at = w.lines.length;
    await writer.exec(
      `DELETE FROM part WHERE session_id = 'ses_child01'; DELETE FROM message WHERE session_id = 'ses_child01'; DELETE FROM session WHERE id = 'ses_child01';`,
    );
    await w.waitFor(/"kind":"removed"/, at);
    expect(await messagesOf(data, codexIds[0] ?? '')).toEqual(codexMessages);
    expect(await goneSources(data)).toEqual(['cline', 'codex', 'opencode']);
    expect(await searchFinds(home.env, data, 'tramwombat')).toBe(true);
    expect(await searchFinds(home.env, data, 'zephyrquokka')).toBe(true);
    expect(await w.stop()).toBe(0);
  }, 120_000);

  it('after kill -9 at any moment and a restart, holds what one clean import --agents makes', async () => {
    const data = tempDir();
    const writer = await startStoreWriter(home.opencode, 'wal');
    writers.push(writer);
    let w = watch(data);
    await w.waitFor(/"kind":"ready"/);
    // Changes of each kind, the watcher killed without waiting for them to be taken in.
    appendFileSync(home.codex, codexTurn('killed while codex wrote', 'answer one', 40));
    clineAdd(home.cline, 'killed while cline wrote', 'answer two', 1771840200000);
    await writer.exec(opencodeTurn(3, 'killed while opencode wrote', 'answer three'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await w.stop('SIGKILL');
    // More while it is down.
    appendFileSync(home.codex, codexTurn('written while down', 'answer four', 50));
    clineAdd(home.cline, 'cline while down', 'answer five', 1771840300000);
    await writer.exec(opencodeTurn(4, 'opencode while down', 'answer six'));
    w = watch(data);
    await w.waitFor(/"kind":"ready"/);
    // Let the restarted watch settle (its bundle and index), then stop it.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(await w.stop()).toBe(0);
    const fresh = tempDir();
    const run = await chatgraphWith(home.env, 'import', '--agents', '--data-dir', fresh);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(storeImportsAsOne(await graphOf(data, false), 'opencode.db')).toEqual(
      storeImportsAsOne(await graphOf(fresh, false), 'opencode.db'),
    );
    // Codex's and Cline's Imports are import's own (the file's checksum).
    const sources = (g: unknown) => Graph.parse(g).imports.map((i) => i.sourceFile);
    expect(sources(await graphOf(data, false)).filter((f) => f !== 'opencode.db')).toEqual(
      sources(await graphOf(fresh, false)).filter((f) => f !== 'opencode.db'),
    );
  }, 120_000);
});
