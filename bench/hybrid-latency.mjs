// Hybrid search latency over a folder already imported (issue 46: hybrid p95 < 50 ms at a
// million messages, in-process). `node bench/hybrid-latency.mjs DIR [--runs 3] [--dist DIR]`
// Gives the folder's messages a noise vector each when it has none (embedding a million
// messages takes days here; a search loads and scans noise as it would real vectors, only the
// meaning is nonsense), then runs recall-queries.mjs's 100 queries in hybrid mode, each with a
// noise query vector, and beside each its keyword half alone (60 hits). `--dist` times another
// build (for example main's) on the same folder.
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3-multiple-ciphers';
import { fillNoiseVectors, seededGaussian, unitVector } from './noise-vectors.mjs';
import { QUERIES } from './recall-queries.mjs';

const args = process.argv.slice(2);
const data = resolve(args[0] ?? '');
const option = (name, fallback) =>
  args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback;
const runs = Number(option('--runs', '3'));
const dist = resolve(option('--dist', fileURLToPath(new URL('../dist', import.meta.url))));
const { SqliteStore } = await import(join(dist, 'sqlite.js'));
const { layoutOf } = await import(join(dist, 'folder', 'layout.js'));
const { recall } = await import(join(dist, 'recall', 'recall-search.js'));
const file = layoutOf(data).store;
const MODEL = { id: 'bench-noise', dimensions: 384 };

const gaussian = seededGaussian(46);
const unit = () => unitVector(MODEL.dimensions, gaussian);

const peek = new Database(file, { readonly: true });
const hasVectors =
  peek.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'vector_unit'`).get() !== undefined &&
  peek.prepare(`SELECT 1 FROM vector_unit LIMIT 1`).get() !== undefined;
peek.close();
if (!hasVectors) {
  const t = Date.now();
  process.stderr.write(`filling ${file} with noise vectors…\n`);
  const store = SqliteStore.open(file);
  await fillNoiseVectors(store, file, MODEL, unit);
  await store.close();
  process.stderr.write(`filled in ${((Date.now() - t) / 1000).toFixed(0)} s\n`);
}

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor((p / 100) * values.length))
  ];
const median = (values) => percentile(values, 50);
const queryVectors = QUERIES.map(() => unit());
/** @type {Record<'hybrid' | 'hybridCpu' | 'keyword' | 'keywordCpu', [number, number][]>} */
const figures = { hybrid: [], hybridCpu: [], keyword: [], keywordCpu: [] };
const store = SqliteStore.open(file, { readonly: true });
// The first search loads the vector index: not timed.
await recall(store, { text: 'warm up', mode: 'hybrid', limit: 10 }, () => Promise.resolve(unit()));
for (let round = 0; round < runs; round++) {
  /** @type {Record<'hybrid' | 'hybridCpu' | 'keyword' | 'keywordCpu', number[]>} */
  const times = { hybrid: [], hybridCpu: [], keyword: [], keywordCpu: [] };
  for (let i = 0; i < QUERIES.length; i++) {
    const embedQuery = () => Promise.resolve(queryVectors[i]);
    let t = process.hrtime.bigint();
    let cpu = process.cpuUsage();
    await recall(store, { text: QUERIES[i], mode: 'hybrid', limit: 10 }, embedQuery);
    let used = process.cpuUsage(cpu);
    times.hybrid.push(Number(process.hrtime.bigint() - t) / 1e6);
    times.hybridCpu.push((used.user + used.system) / 1000);
    t = process.hrtime.bigint();
    cpu = process.cpuUsage();
    await store.search({ text: QUERIES[i], mode: 'keyword', limit: 60 });
    used = process.cpuUsage(cpu);
    times.keyword.push(Number(process.hrtime.bigint() - t) / 1e6);
    times.keywordCpu.push((used.user + used.system) / 1000);
  }
  for (const [name, values] of Object.entries(times))
    figures[name].push([percentile(values, 50), percentile(values, 95)]);
}
await store.close();
const line = (name) =>
  `p50 ${median(figures[name].map((f) => f[0])).toFixed(1)} ms, p95 ${median(figures[name].map((f) => f[1])).toFixed(1)} ms`;
console.log(
  `${QUERIES.length} queries, medians of ${runs} rounds, load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} (target: hybrid p95 < 50 ms)`,
);
console.log(`  hybrid (k 10)       wall ${line('hybrid')}; CPU ${line('hybridCpu')}`);
console.log(`  its keyword half    wall ${line('keyword')}; CPU ${line('keywordCpu')}`);
