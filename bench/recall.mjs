// The recall benchmark (issue: recall).
// `node bench/recall.mjs [--vectors 1000000] [--embed-seconds 120] [--no-embed] [--no-neo4j] [--only-neo4j [--sweep | --breakdown [--compare <dist>] [--rounds 3]]]`
// 1. Embedding throughput of the default model on the generated 200 MB ChatGPT export and on a
//    Claude Code corpus: a timed embed run each (texts/s, MB/s, peak RSS).
// 2. Semantic and hybrid latency over 100 distinct queries at 100,000 and at 1,000,000 vectors
//    on SQLite, and recall@10 of the semantic search against an exact scan of the same vectors.
//    Embedding a million texts takes hours here, so the vectors are real embeddings of a sample
//    plus noise (clustered like real data), on a store of 100,000 messages: one chunk a message,
//    then ten (as long messages have), for the million.
// 3. The same searches on Neo4j at 100,000 vectors.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3-multiple-ciphers';
import { Neo4jStore } from '../dist/neo4j.js';
import { SqliteStore } from '../dist/sqlite.js';
import { openEmbedder } from '../dist/embed/open-embedder.js';
import { recall } from '../dist/recall/recall-search.js';
import { recallConversations } from '../dist/recall/recall-conversations.js';
import { layoutOf } from '../dist/folder/layout.js';
import { writeChatgptExport } from '../dist/sample/write-samples.js';
import { writeClaudeCodeProjects } from '../dist/sample/claude-code-sample.js';
import { startNeo4j } from '../scripts/neo4j-server.mjs';
import { breakdownNeo4jSearch } from './neo4j-recall-breakdown.mjs';
import { fillNoiseVectors, seededGaussian, unitVector } from './noise-vectors.mjs';
import { sweepNeo4jVectors } from './neo4j-vector-sweep.mjs';
import { QUERIES } from './recall-queries.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
// --no-embed and --no-neo4j leave out those parts (the vector sets reuse the cached embed run);
// --only-neo4j runs Neo4j at 100,000 vectors alone (no embed run, no SQLite sets).
const onlyNeo4j = args.includes('--only-neo4j');
const skipEmbed = onlyNeo4j || args.includes('--no-embed');
const skipNeo4j = !onlyNeo4j && args.includes('--no-neo4j');
// --sweep: on Neo4j, each index setting and way of asking it instead (neo4j-vector-sweep.mjs).
const sweep = args.includes('--sweep');
// --breakdown: on Neo4j, each step and statement of a semantic search timed alone, then
// --rounds rounds of recall, alternately with this build and with --compare <dist> (another
// build's dist/ folder, say the one before a change), so both meet the same load.
const breakdown = args.includes('--breakdown');
const compare = args.includes('--compare') ? args[args.indexOf('--compare') + 1] : undefined;
const rounds = option('--rounds', 3);
const load = () =>
  `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')}`;
const chunksForLargest = Math.max(1, Math.round(option('--vectors', 1_000_000) / 100_000));
const embedSeconds = option('--embed-seconds', 120);
const work = join(root, '.bench');
mkdirSync(work, { recursive: true });
const cli = join(root, 'dist', 'cli', 'main.js');
const say = (line) => process.stdout.write(`${line}\n`);
const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor((p / 100) * values.length))
  ];

function run(cliArgs) {
  return execFileSync(process.execPath, [cli, ...cliArgs], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

/** Imports an export into a data folder once (kept in .bench between runs). */
function imported(name, input) {
  const dataDir = join(work, name);
  if (!existsSync(layoutOf(dataDir).store)) run(['import', input, '--data-dir', dataDir, '-q']);
  return dataDir;
}

function timedEmbed(dataDir) {
  return JSON.parse(
    execFileSync(
      process.execPath,
      [join(root, 'bench', 'embed-child.mjs'), dataDir, String(embedSeconds)],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      },
    ),
  );
}

function sayThroughput(label, r) {
  const mb = r.charactersDone / 1024 / 1024;
  say(
    `embedding, ${label}: ${r.embedded} chunks in ${r.seconds.toFixed(0)} s = ${(r.embedded / r.seconds).toFixed(1)} texts/s, ${(mb / r.seconds).toFixed(3)} MB/s of text (${r.conversationsDone} conversations done), peak RSS ${(r.maxRssBytes / 1024 / 1024).toFixed(0)} MB`,
  );
}

// 1. Throughput.
const chatgptZip = join(work, 'chatgpt-200mb.zip');
if (!existsSync(chatgptZip))
  await writeChatgptExport(chatgptZip, { seed: 42, targetBytes: 200 * 1024 * 1024 });
const chatgptData = imported('recall-chatgpt-200mb', chatgptZip);
if (!skipEmbed) {
  sayThroughput('generated 200 MB ChatGPT export', timedEmbed(chatgptData));
  const projects = join(work, 'claude-code-300');
  if (!existsSync(projects)) await writeClaudeCodeProjects(projects, { seed: 9, sessions: 300 });
  sayThroughput(
    'Claude Code corpus (300 sessions)',
    timedEmbed(imported('recall-claude-code', projects)),
  );
}

// 2. Real vectors of a sample, for the synthetic sets.
const sampleRows = /** @type {[Buffer][]} */ (
  new Database(layoutOf(chatgptData).store, { readonly: true })
    .prepare(`SELECT vector FROM vector_unit LIMIT 20000`)
    .raw()
    .all()
);
const sample = sampleRows.map(
  ([blob]) =>
    new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)),
);
if (sample.length < 100) throw new Error('the embed run gave too few vectors to sample');
const dimensions = sample[0]?.length ?? 0;
say(`sample: ${sample.length} real vectors of ${dimensions} dimensions`);

const gaussian = seededGaussian(7);
const noisy = (i) =>
  unitVector(
    dimensions,
    gaussian,
    sample[i % sample.length] ?? new Float32Array(dimensions),
    0.035,
  );

const embedder = await openEmbedder({});
const queryVectors = await embedder.embed(QUERIES);
await embedder.close();

/** Gives every message of a store `chunks` vectors (real sample plus noise); returns them all. */
async function fillVectors(store, dataDir, chunks = 1) {
  /** @type {{ id: string, vector: Float32Array }[]} */
  const all = [];
  await fillNoiseVectors(
    store,
    layoutOf(dataDir).store,
    { id: 'bench-noisy-sample', dimensions },
    (index, id) => {
      const vector = noisy(index);
      all.push({ id, vector });
      return vector;
    },
    chunks,
  );
  return all;
}

/** The ten nodes nearest a query by an exact scan of every vector (best chunk per node). */
function exactTop10(all, query) {
  const best = new Map();
  for (const { id, vector } of all) {
    let s = 0;
    for (let d = 0; d < dimensions; d++) s += vector[d] * query[d];
    if (!(best.get(id) >= s)) best.set(id, s);
  }
  return [...best.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([id]) => id);
}

async function latencies(store, label, all) {
  const semantic = [];
  const hybrid = [];
  const keyword = [];
  const groupedSemantic = [];
  const groupedHybrid = [];
  let found = 0;
  for (let i = 0; i < QUERIES.length; i++) {
    const vector = queryVectors[i];
    if (!vector) throw new Error(`no vector for query ${i}`);
    const embedQuery = () => Promise.resolve(vector);
    let t = process.hrtime.bigint();
    await recall(store, { text: QUERIES[i], mode: 'semantic', limit: 10 }, embedQuery);
    semantic.push(Number(process.hrtime.bigint() - t) / 1e6);
    t = process.hrtime.bigint();
    await recall(store, { text: QUERIES[i], mode: 'hybrid', limit: 10 }, embedQuery);
    hybrid.push(Number(process.hrtime.bigint() - t) / 1e6);
    // The keyword half of a hybrid search (its 60 hits), alone: what hybrid waits on besides.
    t = process.hrtime.bigint();
    await store.search({ text: QUERIES[i], mode: 'keyword', limit: 60 });
    keyword.push(Number(process.hrtime.bigint() - t) / 1e6);
    // The same searches answered in conversations (what every shell now shows by default).
    for (const [mode, into] of /** @type {const} */ ([
      ['semantic', groupedSemantic],
      ['hybrid', groupedHybrid],
    ])) {
      t = process.hrtime.bigint();
      await recallConversations(store, (q) => recall(store, q, embedQuery), {
        text: QUERIES[i],
        mode,
        limit: 10,
      });
      into.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    if (all) {
      const got = new Set(
        (await store.vectors.search({ vector: queryVectors[i], limit: 10 })).map((h) => h.nodeId),
      );
      found += exactTop10(all, queryVectors[i]).filter((id) => got.has(id)).length;
    }
  }
  const ms = (values) =>
    `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms`;
  say(
    `${label}: semantic ${ms(semantic)}; hybrid ${ms(hybrid)} (its keyword half alone ${ms(keyword)}); grouped by conversation: semantic ${ms(groupedSemantic)}, hybrid ${ms(groupedHybrid)} (target ≤ 1.2× per message)${all ? `; recall@10 against an exact scan ${(found / (QUERIES.length * 10)).toFixed(3)}` : ''} (target p95 < 100 ms, recall@10 ≥ 0.95 at 1M)`,
  );
}

async function graphStore(messages, zipName, options) {
  const zip = join(work, zipName);
  if (!existsSync(zip))
    await writeChatgptExport(zip, { seed: 77, targetMessages: messages, ...options });
  return imported(`recall-graph-${messages}`, zip);
}

const dataDir = await graphStore(100_000, 'chatgpt-100000-messages-plain.zip', {});
for (const chunks of onlyNeo4j ? [] : [1, chunksForLargest]) {
  const store = SqliteStore.open(layoutOf(dataDir).store, {
    vectorIndexFile: layoutOf(dataDir).vectorIndex,
  });
  const started = process.hrtime.bigint();
  const all = await fillVectors(store, dataDir, chunks);
  say(
    `SQLite: ${all.length} vectors (${chunks} a message) written in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(0)} s`,
  );
  // The first search reads the codes and int8 vectors into memory (a long-running server does
  // it once) and saves them beside the store; the next process reads that file instead.
  const firstSearch = async (target) => {
    const t = process.hrtime.bigint();
    await target.vectors.search({
      vector: queryVectors[0] ?? new Float32Array(dimensions),
      limit: 10,
    });
    return (Number(process.hrtime.bigint() - t) / 1e6).toFixed(0);
  };
  const fromRows = await firstSearch(store);
  const reopened = SqliteStore.open(layoutOf(dataDir).store, {
    readonly: true,
    vectorIndexFile: layoutOf(dataDir).vectorIndex,
  });
  const fromFile = await firstSearch(reopened);
  await reopened.close();
  say(
    `first search: ${fromRows} ms reading every vector row, ${fromFile} ms in a new process reading the saved index; RSS ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB`,
  );
  await latencies(store, `SQLite at ${all.length.toLocaleString('en-US')} vectors`, all);
  await store.close();
  if (chunks === 1 && !skipNeo4j) await neo4jLatencies(dataDir);
}
if (onlyNeo4j) await neo4jLatencies(dataDir);

async function neo4jLatencies(data) {
  const server = await startNeo4j({ heap: '4g' });
  try {
    const target = server.target;
    execFileSync(process.execPath, [cli, 'push', '--neo4j', target.url, '--data-dir', data, '-q'], {
      env: { ...process.env, NEO4J_PASSWORD: target.password },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const neo = await Neo4jStore.open(target);
    const t = process.hrtime.bigint();
    const all = await fillVectors(neo, data);
    say(
      `Neo4j: ${all.length} vectors written in ${(Number(process.hrtime.bigint() - t) / 1e9).toFixed(0)} s`,
    );
    if (breakdown)
      await breakdownNeo4jSearch({
        target,
        home: server.home,
        dists: [join(root, 'dist'), ...(compare ? [resolve(compare)] : [])],
        queries: QUERIES,
        queryVectors,
        exact: queryVectors.map((vector) => exactTop10(all, vector)),
        rounds,
        say,
        load,
      });
    else if (sweep)
      await sweepNeo4jVectors({
        target,
        queryVectors,
        exact: queryVectors.map((vector) => exactTop10(all, vector)),
        dimensions,
        say,
      });
    else {
      say(load());
      await latencies(neo, `Neo4j at ${all.length.toLocaleString('en-US')} vectors`, all);
      say(load());
    }
    await neo.close();
  } finally {
    await server.dispose();
  }
}
