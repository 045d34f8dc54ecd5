// The graph benchmark (issue: the context graph): import throughput end to end, search and
// thread latency, unchanged re-import, store size, and the seed's four Cypher queries at
// 100,000 messages. `npm run bench -- --messages 1000000`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteStore } from '../dist/sqlite.js';
import { layoutOf } from '../dist/folder/layout.js';
import { openReadonly } from '../dist/stores/sqlite/open-readonly.js';
import { searchSqlite } from '../dist/stores/sqlite/sqlite-search.js';
import { writeChatgptExport } from '../dist/sample/write-samples.js';
import { KIND_NAMES, keywordQueries } from './keyword-queries.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const messages = option('--messages', 1_000_000);
const work = join(root, '.bench');
mkdirSync(work, { recursive: true });
const cli = join(root, 'dist', 'cli', 'main.js');

async function exportWith(name, targetMessages, longTurns) {
  const path = join(work, name);
  if (!existsSync(path)) {
    process.stderr.write(`generating ${path}…\n`);
    await writeChatgptExport(path, {
      seed: 77,
      targetMessages,
      ...(longTurns ? { longTurns } : {}),
    });
  }
  return path;
}

const say = (line) => process.stdout.write(`${line}\n`);

function timed(fn) {
  const t = process.hrtime.bigint();
  const result = fn();
  return { result, seconds: Number(process.hrtime.bigint() - t) / 1e9 };
}

function importInto(path, dataDir) {
  return timed(() =>
    JSON.parse(
      execFileSync(process.execPath, [cli, 'import', path, '--data-dir', dataDir, '--json', '-q'], {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
      }),
    ),
  );
}

function sizeOf(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.size;
  return readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0);
}

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor((p / 100) * values.length))
  ];
const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);

// `--search-only DIR`: only the search section (2), over a folder already imported (kept
// between runs under /tmp: a million messages take minutes to generate and import).
const searchOnly = args.includes('--search-only')
  ? args[args.indexOf('--search-only') + 1]
  : undefined;
// Each round opens the store anew and runs every query once; the figures are the medians of
// the rounds' percentiles.
const rounds = option('--runs', 7);

// 1. Import of at least `messages` messages.
const big = searchOnly ? '' : await exportWith(`chatgpt-${messages}-messages.zip`, messages, 1000);
const data = searchOnly ?? join(work, 'graph-data');
/** @type {ReturnType<typeof importInto> | undefined} */
let first;
if (!searchOnly) {
  rmSync(data, { recursive: true, force: true });
  first = importInto(big, data);
  const bytes = first.result.files
    .filter((f) => f.role === 'conversations')
    .reduce((s, f) => s + f.bytes, 0);
  say(
    `graph export: ${big} (${mb(bytes)} MB of conversations.json, ${first.result.totals.messages} messages, ${first.result.totals.conversations} conversations)`,
  );
  const counted = SqliteStore.open(layoutOf(data).store, { readonly: true });
  const counts = await counted.counts();
  await counted.close();
  const rows =
    Object.values(counts.nodes).reduce((a, b) => a + b, 0) +
    Object.values(counts.edges).reduce((a, b) => a + b, 0);
  say(
    `import end to end: ${first.seconds.toFixed(1)} s, ${(bytes / 1024 / 1024 / first.seconds).toFixed(1)} MB/s (target ≥ 15 MB/s), ${Math.round(rows / first.seconds)} rows/s (${rows} nodes and edges)`,
  );
  say(
    `store on disk: SQLite ${mb(sizeOf(layoutOf(data).store) + sizeOf(`${layoutOf(data).store}-wal`))} MB, PAM bundle ${mb(sizeOf(layoutOf(data).bundle.dir))} MB`,
  );
}

// 2. Search latency per kind of query, 20 distinct queries a kind (issue 46: p95 < 50 ms at a
// million messages for every kind).
const queries = keywordQueries();
if (new Set(queries.map((q) => JSON.stringify(q.query))).size !== queries.length)
  throw new Error('the search bench needs distinct queries');
// Wall time through the store (its search child process), and beside it the CPU time of the
// same search run by searchSqlite in this process (what the child does): on a shared machine a
// query's wall time also holds other processes' turns on the cores and the disk.
/** @type {Map<string, { p50: number[], p95: number[], cpu50: number[], cpu95: number[] }>} */
const perKind = new Map(KIND_NAMES.map((k) => [k, { p50: [], p95: [], cpu50: [], cpu95: [] }]));
/** @type {{ p50: number[], p95: number[], cpu50: number[], cpu95: number[] }} */
const overall = { p50: [], p95: [], cpu50: [], cpu95: [] };
const cpuMs = (usage) => (usage.user + usage.system) / 1000;
for (let round = 0; round < rounds; round++) {
  const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
  /** @type {Map<string, { wall: number[], cpu: number[] }>} */
  const times = new Map(KIND_NAMES.map((k) => [k, { wall: [], cpu: [] }]));
  // The store's first search starts its search child (a process, then the store opened in it):
  // not timed, or it lands in the first kind's p95 (a word's was 174 ms wall against 16 ms CPU).
  await store.search({ text: 'warm', limit: 1 });
  for (const { kind, query } of queries) {
    const t = process.hrtime.bigint();
    await store.search({ ...query, limit: 20 });
    times.get(kind)?.wall.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  await store.close();
  const db = openReadonly(layoutOf(data).store, undefined);
  for (const { kind, query } of queries) {
    const cpu = process.cpuUsage();
    searchSqlite(db, { ...query, limit: 20 });
    times.get(kind)?.cpu.push(cpuMs(process.cpuUsage(cpu)));
  }
  db.close();
  for (const [kind, { wall, cpu }] of times) {
    const figures = perKind.get(kind);
    figures?.p50.push(percentile(wall, 50));
    figures?.p95.push(percentile(wall, 95));
    figures?.cpu50.push(percentile(cpu, 50));
    figures?.cpu95.push(percentile(cpu, 95));
  }
  const wall = [...times.values()].flatMap((t) => t.wall);
  const cpu = [...times.values()].flatMap((t) => t.cpu);
  overall.p50.push(percentile(wall, 50));
  overall.p95.push(percentile(wall, 95));
  overall.cpu50.push(percentile(cpu, 50));
  overall.cpu95.push(percentile(cpu, 95));
}
const median = (values) => percentile(values, 50);
say(
  `search, ${queries.length} distinct queries, medians of ${rounds} rounds (target p95 < 50 ms):`,
);
const line = (kind, { p50, p95, cpu50, cpu95 }) =>
  say(
    `  ${kind.padEnd(15)} p50 ${median(p50).toFixed(1).padStart(6)} ms, p95 ${median(p95).toFixed(1).padStart(6)} ms (rounds' p95 ${Math.min(...p95).toFixed(0)}–${Math.max(...p95).toFixed(0)}); in-process CPU p50 ${median(cpu50).toFixed(1)} ms, p95 ${median(cpu95).toFixed(1)} ms`,
  );
for (const [kind, figures] of perKind) line(kind, figures);
line('every kind', overall);
if (searchOnly) process.exit(0);
const store = SqliteStore.open(layoutOf(data).store, { readonly: true });

// 3. Thread latency for the longest conversation (2,000 messages).
const [longest] = await store.cypher(
  'MATCH (c:Conversation) RETURN c.id AS id, c.message_count AS n ORDER BY n DESC LIMIT 1',
);
if (typeof longest?.id !== 'string') throw new Error('the bench store holds no conversation');
const threadTimes = [];
let threadLength = 0;
for (let i = 0; i < 20; i++) {
  const t = process.hrtime.bigint();
  threadLength = (await store.thread(longest.id)).length;
  threadTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
}
await store.close();
say(
  `thread of a ${threadLength}-message conversation: p50 ${percentile(threadTimes, 50).toFixed(1)} ms, max ${Math.max(...threadTimes).toFixed(1)} ms (target < 100 ms)`,
);

// 4. Unchanged re-import.
const again = importInto(big, data);
say(
  `unchanged re-import: ${again.seconds.toFixed(2)} s, ${((again.seconds / (first?.seconds ?? Number.NaN)) * 100).toFixed(1)}% of the first import (target < 5%)`,
);

// 5. The seed's four queries at 100,000 messages, projection included, in a fresh process.
const small = await exportWith('chatgpt-100000-messages-plain.zip', 100_000);
const smallData = join(work, 'graph-data-100k');
rmSync(smallData, { recursive: true, force: true });
importInto(small, smallData);
const seedScript = `
import { SqliteStore } from '${join(root, 'dist', 'sqlite.js')}';
import { layoutOf } from '${join(root, 'dist', 'folder', 'layout.js')}';
const store = SqliteStore.open(layoutOf(${JSON.stringify(smallData)}).store, { readonly: true });
// A conversation of median length: the seed's thread query returns one row per prefix.
const ids = await store.cypher('MATCH (c:Conversation) RETURN c.conversation_id AS id ORDER BY c.message_count, id');
const conv = ids[Math.floor(ids.length / 2)];
const queries = [
  ["MATCH (c:Conversation) WHERE c.source = 'claude-ai' RETURN c.name, c.message_count, c.created_at ORDER BY c.created_at DESC", {}],
  ["MATCH path = (first:Message)-[:NEXT*]->(last:Message) WHERE first.conversation_id = $conv_id AND NOT ()-[:NEXT]->(first) RETURN [n IN nodes(path) | {role: n.role, content: left(n.content, 200)}] AS thread", { conv_id: conv.id }],
  ["MATCH (c:Conversation) RETURN c.source, count(c) AS conversations, sum(c.message_count) AS total_messages", {}],
  ["MATCH (d:Document) WHERE d.template_id = 'chat-import' AND d.content CONTAINS $search_term RETURN d.title, d.source, d.created_at ORDER BY d.created_at DESC", { search_term: 'sourdough' }],
];
const times = [];
const t0 = process.hrtime.bigint();
for (const [q, p] of queries) { const t = process.hrtime.bigint(); const rows = await store.cypher(q, p); times.push([Number(process.hrtime.bigint() - t) / 1e9, rows.length]); }
console.log(JSON.stringify({ total: Number(process.hrtime.bigint() - t0) / 1e9, times }));
await store.close();
`;
const seed = JSON.parse(
  execFileSync(process.execPath, ['--input-type=module', '-e', seedScript], { encoding: 'utf8' }),
);

say(
  `seed's four Cypher queries at 100,000 messages, projection included: ${seed.total.toFixed(2)} s (target < 10 s); each: ${seed.times.map(([sec, n]) => `${sec.toFixed(2)} s/${n} rows`).join(', ')}`,
);
