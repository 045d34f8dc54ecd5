// The live-memory benchmark (`chatgraph watch`): append→searchable latency, the cost of one
// appended line by session length, CPU while idle, and a re-scan of unchanged sessions.
// Other coding agents (issue 44): append→searchable for a Codex rollout appended to, a Cline
// history rewritten through a rename and OpenCode's store written in WAL mode (`agents`), and
// CPU while twenty agents' folders are followed and nothing changes (`idle-agents`).
// `node bench/watch.mjs [--appends 100] [--idle-seconds 60] [--sessions 3000] [--lengths 50,5000]
//   [--only latency,length,breakdown,burst,idle,rescan,agents,idle-agents]`
// Needs `npm run build` first. Not part of `npm run bench` (the idle part alone takes a minute).
import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import Database from 'better-sqlite3-multiple-ciphers';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { followFolders } from '../dist/data-folder/follow-folders.js';
import { Bundle } from '../dist/bundle/bundle.js';
import { Folder } from '../dist/folder/folder.js';
import { bundleLayout, layoutOf } from '../dist/folder/layout.js';
import { SqliteStore } from '../dist/sqlite.js';
import { scanTargets } from '../dist/live/scan-folders.js';
import { SessionConversion, convertSession } from '../dist/live/convert-session.js';
import { BundleWriter } from '../dist/bundle/bundle-writer.js';
import { LiveStoreWriter } from '../dist/pipeline/live-store-writer.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const arg = (name, fallback) =>
  args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback;
const appends = Number(arg('appends', '100'));
const idleSeconds = Number(arg('idle-seconds', '60'));
const sessionCount = Number(arg('sessions', '3000'));
// Session lengths for the cost of one appended line (`--lengths 50,5000,50000`).
const lengths = arg('lengths', '50,5000').split(',').map(Number);
const only = new Set(
  arg('only', 'latency,length,breakdown,burst,idle,rescan,agents,idle-agents').split(','),
);
const base = join(root, '.bench', 'watch');
rmSync(base, { recursive: true, force: true });

const words = 'sourdough starter kernel planner index vector graph branch token cache thread'.split(
  ' ',
);
let uuidCounter = 0;
function line(session, parent, role, text) {
  const uuid = `u-${session}-${++uuidCounter}`;
  const entry = {
    type: role,
    uuid,
    parentUuid: parent,
    sessionId: session,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, uuidCounter % 86400)).toISOString(),
    cwd: '/work/project',
    version: '2.1.0',
    message:
      role === 'assistant'
        ? { id: `msg-${uuid}`, role, model: 'claude-sonnet-4', content: [{ type: 'text', text }] }
        : { role, content: text },
  };
  return { uuid, text: `${JSON.stringify(entry)}\n` };
}
function prose(n) {
  return Array.from({ length: n }, (_, i) => words[(i * 7 + uuidCounter) % words.length]).join(' ');
}
/** Writes a session log of `lines` lines; returns the last uuid. */
function writeSession(dir, session, lines) {
  mkdirSync(dir, { recursive: true });
  let parent = null;
  const parts = [];
  for (let i = 0; i < lines; i++) {
    const made = line(session, parent, i % 2 === 0 ? 'user' : 'assistant', prose(40));
    parts.push(made.text);
    parent = made.uuid;
  }
  writeFileSync(join(dir, `${session}.jsonl`), parts.join(''));
  return parent;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** Starts a follower; resolves `imported` waiters with each event. */
async function follow(folder, data) {
  const waiters = [];
  const follower = await followFolders(new Folder(data), {
    folders: [folder],
    indexDelayMilliseconds: 1000,
    onEvent: (event) => {
      if (event.kind === 'problem') process.stderr.write(`problem: ${event.message}\n`);
      if (event.kind === 'imported') for (const w of waiters.splice(0)) w(event);
    },
  });
  const next = () => new Promise((resolve) => waiters.push(resolve));
  return { follower, next };
}

async function latency() {
  const folder = join(base, 'latency', 'projects');
  const data = join(base, 'latency', 'data');
  let parent = writeSession(join(folder, '-work-project'), 'latency-session', 200);
  const { follower } = await follow(folder, data);
  const reader = SqliteStore.open(layoutOf(data).store, { readonly: true });
  const times = [];
  for (let i = 0; i < appends; i++) {
    const word = `zq${i}marker${Math.random().toString(36).slice(2, 8)}`;
    const made = line(
      'latency-session',
      parent,
      i % 2 === 0 ? 'user' : 'assistant',
      `${prose(20)} ${word}`,
    );
    parent = made.uuid;
    const started = performance.now();
    appendFileSync(join(folder, '-work-project', 'latency-session.jsonl'), made.text);
    for (;;) {
      const found = await reader.search({ text: word, mode: 'keyword', limit: 1 });
      if (found.hits.length > 0) break;
      await new Promise((r) => setTimeout(r, 2));
    }
    times.push(performance.now() - started);
    // Appends a little apart, as a session writes them.
    await new Promise((r) => setTimeout(r, 20));
  }
  await reader.close();
  await follower.stop();
  return `append→searchable over ${appends} appends to a 200-line session: p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`;
}

async function costByLength(lines) {
  const folder = join(base, `length-${lines}`, 'projects');
  const data = join(base, `length-${lines}`, 'data');
  let parent = writeSession(join(folder, '-work-project'), `len-${lines}`, lines);
  const { follower, next } = await follow(folder, data);
  const times = [];
  for (let i = 0; i < 30; i++) {
    const made = line(`len-${lines}`, parent, i % 2 === 0 ? 'user' : 'assistant', prose(40));
    parent = made.uuid;
    const imported = next();
    const started = performance.now();
    appendFileSync(join(folder, '-work-project', `len-${lines}.jsonl`), made.text);
    await imported;
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 10));
  }
  await follower.stop();
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

/**
 * Where one append's time goes, by session length: a session of `lines` lines converted, then
 * 9 lines appended one at a time, each stage of each append timed (medians), as `watch` runs
 * them: the conversion going on from where it stopped (convert, project the delta), the store
 * write;
 * and what waits for a quiet moment (`settle`): the bundle file's bytes and hash, the
 * Document, their store patch and the durable file write.
 */
async function breakdown(lines) {
  const dir = join(base, `breakdown-${lines}`);
  writeSession(join(dir, 'projects'), `bd-${lines}`, lines + 9);
  const all = readFileSync(join(dir, 'projects', `bd-${lines}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  const source = (n) => ({
    entryPath: `-p/bd-${lines}.jsonl`,
    displayPath: `projects/-p/bd-${lines}.jsonl`,
    variant: 'session',
    checksum: `sha256:${n}`,
    importId: 'import:live:bd',
    importedAt: '2026-01-01T10:00:00.000000Z',
    deep: false,
  });
  const median = (times) => percentile(times, 50);
  let started = performance.now();
  const whole = convertSession(all.slice(0, lines), source(lines), () => undefined)[0];
  whole?.settle().batch();
  const wholeTime = performance.now() - started;
  const conversion = new SessionConversion(source(lines));
  const first = conversion.convert(all.slice(0, lines), source(lines), () => undefined)[0];
  if (!first) throw new Error('the generated session converted to no conversation');
  const store = SqliteStore.open(join(dir, 'store.sqlite'));
  const graph = new LiveStoreWriter(store, false);
  await graph.step(first);
  const bundle = await BundleWriter.open(new Bundle(bundleLayout(join(dir, 'bundle'))));
  const firstFile = first.settle();
  await graph.settled(first, firstFile);
  bundle.writeConversation(first.id, firstFile.text, firstFile.contentHash, first.index);
  /** @type {Record<'convert' | 'patch' | 'settle' | 'settlePatch' | 'put', number[]>} */
  const times = { convert: [], patch: [], settle: [], settlePatch: [], put: [] };
  let deltas = 0;
  for (let i = lines; i < lines + 9; i++) {
    started = performance.now();
    const next = conversion.convert([all[i]], source(i + 1), () => undefined)[0];
    times.convert.push(performance.now() - started);
    if (!next) throw new Error('an appended line converted to no conversation');
    if (next.delta) deltas++;
    started = performance.now();
    await graph.step(next);
    times.patch.push(performance.now() - started);
    started = performance.now();
    const settled = next.settle();
    times.settle.push(performance.now() - started);
    started = performance.now();
    await graph.settled(next, settled);
    times.settlePatch.push(performance.now() - started);
    started = performance.now();
    bundle.putConversation(next.id, settled.text, next.index);
    times.put.push(performance.now() - started);
  }
  await store.close();
  return {
    whole: wholeTime,
    convert: median(times.convert),
    patch: median(times.patch),
    settle: median(times.settle),
    settlePatch: median(times.settlePatch),
    put: median(times.put),
    mb: firstFile.text.length / 1e6,
    rebuilds: conversion.rebuilds,
    deltas,
  };
}

/** A burst of 40 lines 25 ms apart into a 5,000-line session: CPU used, and last line → searchable. */
async function burst() {
  const folder = join(base, 'burst', 'projects');
  const data = join(base, 'burst', 'data');
  let parent = writeSession(join(folder, '-work-project'), 'burst-5000', 5000);
  const { follower } = await follow(folder, data);
  const reader = SqliteStore.open(layoutOf(data).store, { readonly: true });
  const cpu = process.cpuUsage();
  const word = `zqburst${Math.random().toString(36).slice(2, 8)}`;
  for (let i = 0; i < 40; i++) {
    const text = i === 39 ? `${prose(20)} ${word}` : prose(20);
    const made = line('burst-5000', parent, i % 2 === 0 ? 'user' : 'assistant', text);
    parent = made.uuid;
    appendFileSync(join(folder, '-work-project', 'burst-5000.jsonl'), made.text);
    await new Promise((r) => setTimeout(r, 25));
  }
  const last = performance.now();
  for (;;) {
    if ((await reader.search({ text: word, mode: 'keyword', limit: 1 })).hits.length > 0) break;
    await new Promise((r) => setTimeout(r, 5));
  }
  const latency = performance.now() - last;
  const used = process.cpuUsage(cpu);
  await reader.close();
  await follower.stop();
  return `a burst of 40 lines (25 ms apart) into a 5,000-line session: last line searchable ${latency.toFixed(0)} ms after it was written; ${((used.user + used.system) / 1e6).toFixed(1)} s of CPU for the burst`;
}

async function idle() {
  const folder = join(base, 'idle', 'projects');
  const data = join(base, 'idle', 'data');
  for (let i = 0; i < 300; i++) writeSession(join(folder, `-p${i % 30}`), `idle-${i}`, 6);
  const { follower } = await follow(folder, data);
  await new Promise((r) => setTimeout(r, 2000));
  const before = process.cpuUsage();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const used = process.cpuUsage(before);
  const wall = performance.now() - started;
  await follower.stop();
  const cpuMs = (used.user + used.system) / 1000;
  return `idle for ${idleSeconds} s following 300 sessions: ${cpuMs.toFixed(0)} ms of CPU (${((cpuMs / wall) * 100).toFixed(3)} % of one core)`;
}

async function rescan() {
  const folder = join(base, 'rescan', 'projects');
  const data = join(base, 'rescan', 'data');
  for (let i = 0; i < sessionCount; i++) writeSession(join(folder, `-p${i % 100}`), `rs-${i}`, 4);
  let started = performance.now();
  const first = await follow(folder, data);
  const firstPass = performance.now() - started;
  await first.follower.stop();
  started = performance.now();
  const files = await scanTargets(
    [{ path: folder }],
    () => undefined,
    () => false,
  );
  const scan = performance.now() - started;
  started = performance.now();
  const again = await follow(folder, data);
  const restart = performance.now() - started;
  await again.follower.stop();
  return `${files.size} sessions: first pass (imports them all) ${(firstPass / 1000).toFixed(1)} s; re-scan of them unchanged ${scan.toFixed(0)} ms (stat only); a restarted watch's first pass over them ${restart.toFixed(0)} ms`;
}

/**
 * A home folder with one agent of each kind: a Codex rollout, a Cline task, OpenCode's store (in
 * WAL mode, as OpenCode keeps it). Returns where each is, and the `LookIn` that finds them.
 */
function agentHome(dir, n = 0) {
  const home = join(dir, `home-${n}`);
  const codexDir = join(home, '.codex', 'sessions', '2026', '12', '06');
  mkdirSync(codexDir, { recursive: true });
  const codex = join(
    codexDir,
    `rollout-2026-12-06T09-00-00-0193b0c0-0000-7000-8000-${String(n).padStart(12, '0')}.jsonl`,
  );
  writeFileSync(
    codex,
    `${JSON.stringify({ timestamp: '2026-12-06T09:00:00.000Z', type: 'session_meta', payload: { id: `0193b0c0-0000-7000-8000-${String(n).padStart(12, '0')}`, timestamp: '2026-12-06T09:00:00.000Z', cwd: '/work/project', originator: 'codex_cli_rs', cli_version: '0.46.0' } })}\n${codexTurn('start the bench', 'started', 0)}`,
  );
  const task = join(
    home,
    '.config',
    'Code',
    'User',
    'globalStorage',
    'saoudrizwan.claude-dev',
    'tasks',
    `17718400${String(n).padStart(5, '0')}`,
  );
  mkdirSync(task, { recursive: true });
  const cline = join(task, 'api_conversation_history.json');
  writeFileSync(
    cline,
    JSON.stringify([
      {
        role: 'user',
        ts: 1771840021400,
        content: [{ type: 'text', text: '<task>\nstart the bench\n</task>' }],
      },
      { role: 'assistant', ts: 1771840022400, content: [{ type: 'text', text: 'started' }] },
    ]),
  );
  const storeDir = join(home, '.local', 'share', 'opencode');
  mkdirSync(storeDir, { recursive: true });
  const opencode = join(storeDir, 'opencode.db');
  const db = new Database(opencode);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE project (id TEXT PRIMARY KEY, worktree TEXT NOT NULL, vcs TEXT, name TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL);
CREATE TABLE session (id TEXT PRIMARY KEY, project_id TEXT NOT NULL, parent_id TEXT, slug TEXT NOT NULL, directory TEXT NOT NULL, title TEXT NOT NULL, version TEXT NOT NULL, share_url TEXT, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, time_archived INTEGER);
CREATE TABLE message (id TEXT PRIMARY KEY, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT NOT NULL, session_id TEXT NOT NULL, time_created INTEGER NOT NULL, time_updated INTEGER NOT NULL, data TEXT NOT NULL);
INSERT INTO project VALUES ('prj_bench', '/work/project', 'git', 'project', 1780000000000, 1780000000000);
INSERT INTO session VALUES ('ses_bench', 'prj_bench', NULL, 'bench', '/work/project', 'Bench', '1.4.2', NULL, 1780000000000, 1780000000000, NULL);`);
  db.close();
  /** @type {import('../dist/discover/agent-locations.js').LookIn} */
  const at = {
    env: { XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share') },
    platform: 'linux',
    home,
  };
  return { codex, cline, opencode, at };
}

// One Codex exchange as Codex writes it: each side twice (`response_item` and `event_msg`).
function codexTurn(prompt, answer, n) {
  const at = new Date(Date.UTC(2026, 11, 6, 9, 0, 0, n)).toISOString();
  return [
    {
      timestamp: at,
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] },
    },
    {
      timestamp: at,
      type: 'event_msg',
      payload: { type: 'user_message', message: prompt, images: [] },
    },
    { timestamp: at, type: 'event_msg', payload: { type: 'agent_message', message: answer } },
    {
      timestamp: at,
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: answer }],
      },
    },
  ]
    .map((l) => `${JSON.stringify(l)}\n`)
    .join('');
}

/** Append→searchable for each kind of agent file, `appends` times each, searches back to back. */
async function agents() {
  const dir = join(base, 'agents');
  const { codex, cline, opencode, at } = agentHome(dir);
  const data = join(dir, 'data');
  const follower = await followFolders(new Folder(data), {
    agents: ['codex', 'cline', 'opencode'],
    at,
    indexDelayMilliseconds: 1000,
    onEvent: (event) => {
      if (event.kind === 'problem') process.stderr.write(`problem: ${event.message}\n`);
    },
  });
  const reader = SqliteStore.open(layoutOf(data).store, { readonly: true });
  // The agent's own connection, kept open with nothing checkpointed (commits stay in the WAL).
  const agent = new Database(opencode);
  agent.pragma('journal_mode = WAL');
  agent.pragma('wal_autocheckpoint = 0');
  const history = JSON.parse(readFileSync(cline, 'utf8'));
  const kinds = {
    'Codex (JSONL appended)': (word, i) =>
      appendFileSync(codex, codexTurn(`${prose(20)} ${word}`, prose(20), i + 1)),
    'Cline (JSON rewritten by rename)': (word, i) => {
      history.push(
        {
          role: 'user',
          ts: 1771840100000 + i * 2000,
          content: [{ type: 'text', text: `<feedback>\n${prose(20)} ${word}\n</feedback>` }],
        },
        {
          role: 'assistant',
          ts: 1771840101000 + i * 2000,
          content: [{ type: 'text', text: prose(20) }],
        },
      );
      writeFileSync(`${cline}.tmp`, JSON.stringify(history));
      renameSync(`${cline}.tmp`, cline);
    },
    'OpenCode (SQLite in WAL mode)': (word, i) => {
      const t = 1780001000000 + i * 10000;
      agent.transaction(() => {
        agent
          .prepare('INSERT INTO message VALUES (?, ?, ?, ?, ?)')
          .run(
            `msg_u${i}`,
            'ses_bench',
            t,
            t,
            JSON.stringify({ role: 'user', time: { created: t } }),
          );
        agent
          .prepare('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)')
          .run(
            `prt_u${i}`,
            `msg_u${i}`,
            'ses_bench',
            t,
            t,
            JSON.stringify({ type: 'text', text: `${prose(20)} ${word}` }),
          );
        agent.prepare('UPDATE session SET time_updated = ? WHERE id = ?').run(t, 'ses_bench');
      })();
    },
  };
  const lines = [];
  for (const [kind, write] of Object.entries(kinds)) {
    const times = [];
    for (let i = 0; i < appends; i++) {
      const word = `zq${i}agent${Math.random().toString(36).slice(2, 8)}`;
      const started = performance.now();
      write(word, i);
      for (;;) {
        const found = await reader.search({ text: word, mode: 'keyword', limit: 1 });
        if (found.hits.length > 0) break;
        await new Promise((r) => setTimeout(r, 2));
      }
      times.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
    lines.push(
      `${kind} over ${appends} writes: p50 ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
    );
  }
  agent.close();
  await reader.close();
  await follower.stop();
  return `append→searchable, another agent's session:\n  ${lines.join('\n  ')}`;
}

/** CPU while twenty agents' places are followed (a Codex, a Cline and an OpenCode store each) and nothing changes. */
async function idleAgents() {
  const dir = join(base, 'idle-agents');
  const data = join(dir, 'data');
  const homes = Array.from({ length: 20 }, (_, n) => agentHome(dir, n));
  // One follower over the twenty homes' agent folders: 20 Codex folders, 20 Cline task
  // folders, 20 SQLite stores.
  const folders = homes.flatMap((h) => [
    join(h.at.home, '.codex', 'sessions'),
    join(h.at.home, '.config', 'Code', 'User', 'globalStorage', 'saoudrizwan.claude-dev', 'tasks'),
    join(h.at.home, '.local', 'share', 'opencode'),
  ]);
  const follower = await followFolders(new Folder(data), { folders, agents: false });
  await new Promise((r) => setTimeout(r, 3000));
  const before = process.cpuUsage();
  const started = performance.now();
  await new Promise((r) => setTimeout(r, idleSeconds * 1000));
  const used = process.cpuUsage(before);
  const wall = performance.now() - started;
  await follower.stop();
  const cpuMs = (used.user + used.system) / 1000;
  return `idle for ${idleSeconds} s following ${folders.length} folders of 20 agents' homes (20 Codex, 20 Cline, 20 OpenCode stores polled every 2 s): ${cpuMs.toFixed(0)} ms of CPU (${((cpuMs / wall) * 100).toFixed(3)} % of one core)`;
}

if (only.has('latency')) process.stdout.write(`${await latency()}\n`);
if (only.has('length')) {
  const parts = [];
  for (const lines of lengths) {
    const cost = await costByLength(lines);
    parts.push(
      `${lines.toLocaleString('en')}-line session p50 ${cost.p50.toFixed(1)} ms (p95 ${cost.p95.toFixed(1)})`,
    );
  }
  process.stdout.write(`one line appended (append→imported, 30 appends): ${parts.join('; ')}\n`);
}
if (only.has('breakdown')) {
  for (const lines of lengths) {
    const b = await breakdown(lines);
    process.stdout.write(
      `one append to a ${lines}-line session, by stage: convert+project the new line ${b.convert.toFixed(1)} ms (the whole session: ${b.whole.toFixed(0)} ms; converted from the start ${b.rebuilds} time(s); ${b.deltas} of 9 written as deltas); store write ${b.patch.toFixed(1)} ms. At a quiet moment: bundle bytes+hash+Document ${b.settle.toFixed(1)} ms, their store write ${b.settlePatch.toFixed(1)} ms, bundle file (${b.mb.toFixed(2)} MB, durable write) ${b.put.toFixed(1)} ms\n`,
    );
  }
}
if (only.has('burst')) process.stdout.write(`${await burst()}\n`);
if (only.has('idle')) process.stdout.write(`${await idle()}\n`);
if (only.has('rescan')) process.stdout.write(`${await rescan()}\n`);
if (only.has('agents')) process.stdout.write(`${await agents()}\n`);
if (only.has('idle-agents')) process.stdout.write(`${await idleAgents()}\n`);
