// The import benchmark (issue 46 point 4): `node bench/import.mjs [--mb 200] [--runs 3]
// [--cpu-prof DIR] [--heap-prof DIR] [--cli another build's dist/cli/main.js]`. Imports the
// generated ChatGPT export of that size (the same generator and seed as bench/run.mjs; cached
// in .bench/) into a fresh data folder, a whole `chatgraph import` process a run, and prints messages/s and peak RSS (the kernel's, by
// getrusage in a preloaded sampler, which also samples process.memoryUsage() for the heap,
// external and array-buffer parts at the peak). Beside each run, the baseline: a process that
// reads the same zip entry and JSON.parses its records (no conversion, no writes), so the ratio
// import ÷ baseline is comparable across a noisy, shared machine. `--compare OTHER_CLI` runs
// that build too, alternating with this one run by run, and prints each build's medians. The
// data folders are removed only at the end: ext4 here creates files about 40 times slower
// (0.6 ms of system time each) for some tens of seconds after thousands were deleted nearby,
// which made each run pay for the deletion of the one before (docs/performance.md).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback;

if (args[0] === '--baseline') {
  // The baseline process: the zip entry inflated and split into records, each JSON.parsed.
  const { openZip } = await import('../dist/read/zip.js');
  const { JsonSplitter } = await import('../dist/read/json-splitter.js');
  const started = process.hrtime.bigint();
  const { entries } = await openZip(String(args[1]), 'bench');
  const entry = entries.find((e) => e.path === 'conversations.json');
  if (!entry) throw new Error(`${args[1]}: no conversations.json`);
  const splitter = new JsonSplitter();
  let records = 0;
  for await (const chunk of await entry.open())
    for (const item of splitter.push(chunk)) {
      if (item.kind !== 'record') continue;
      JSON.parse(Buffer.from(item.bytes).toString('utf8'));
      records++;
    }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(JSON.stringify({ seconds, records }));
  process.exit(0);
}

const mb = Number(option('--mb', '200')) || 200;
const runs = Number(option('--runs', '3')) || 3;
const cpuProf = option('--cpu-prof', undefined);
const heapProf = option('--heap-prof', undefined);
const work = join(root, '.bench');
mkdirSync(work, { recursive: true });
const cli = option('--cli', join(root, 'dist', 'cli', 'main.js'));
const compare = option('--compare', undefined);
const builds = compare ? [cli, compare] : [cli];
const leftBehind = [];
const sampler = join(root, 'bench', 'memory-sampler.mjs');

const exportPath = join(work, `chatgpt-${mb}mb.zip`);
if (!existsSync(exportPath)) {
  const { writeChatgptExport } = await import('../dist/sample/write-samples.js');
  process.stderr.write(`generating a ${mb} MB ChatGPT export…\n`);
  await writeChatgptExport(exportPath, { seed: 42, targetBytes: mb * 1024 * 1024 });
}

function importOnce(run, build = cli) {
  const dataDir = join(work, `import-data-${mb}mb-${process.pid}-${run}-${builds.indexOf(build)}`);
  const memoryFile = `${dataDir}.memory.json`;
  rmSync(dataDir, { recursive: true, force: true });
  const flags = [`--import=${sampler}`];
  if (cpuProf) flags.push('--cpu-prof', `--cpu-prof-dir=${cpuProf}`);
  if (heapProf) flags.push('--heap-prof', `--heap-prof-dir=${heapProf}`);
  const started = process.hrtime.bigint();
  const report = JSON.parse(
    execFileSync(
      process.execPath,
      [...flags, build, 'import', exportPath, '--data-dir', dataDir, '--json', '-q'],
      {
        encoding: 'utf8',
        maxBuffer: 1 << 28,
        env: { ...process.env, CHATGRAPH_MEMORY_SAMPLES: memoryFile },
      },
    ),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const memory = JSON.parse(readFileSync(memoryFile, 'utf8'));
  memory.workerHeaps = [];
  for (const name of readdirSync(dirname(memoryFile)))
    if (name.startsWith(`${basename(memoryFile)}.worker-`)) {
      memory.workerHeaps.push(JSON.parse(readFileSync(join(work, name), 'utf8')).heap);
      rmSync(join(work, name), { force: true });
    }
  leftBehind.push(dataDir);
  rmSync(memoryFile, { force: true });
  return { seconds, messages: report.totals.messages, memory };
}

function baselineOnce() {
  const started = process.hrtime.bigint();
  execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--baseline', exportPath], {
    encoding: 'utf8',
  });
  return Number(process.hrtime.bigint() - started) / 1e9;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const MB = (bytes) => (bytes / 1024 / 1024).toFixed(0);
const load = () => (loadavg()[0] ?? 0).toFixed(1);
const say = (line) => process.stdout.write(`${line}\n`);

say(`import of ${exportPath}, ${runs} runs, load average ${load()} at the start`);
/** @type {{ rates: number[], peaks: number[], ratios: number[], cpu: number[], perCpu: number[] }[]} */
const results = builds.map(() => ({ rates: [], peaks: [], ratios: [], cpu: [], perCpu: [] }));
for (let run = 0; run < runs; run++) {
  const base = baselineOnce();
  // Alternating which build goes first, so neither always follows the baseline.
  const order = run % 2 === 0 ? builds : [...builds].reverse();
  for (const build of order) {
    const result = importOnce(run, build);
    const into = results[builds.indexOf(build)];
    if (into === undefined) throw new Error(`no results for ${build}`);
    const rate = result.messages / result.seconds;
    const {
      maxRss,
      atPeak,
      cpuSeconds,
      userSeconds,
      systemSeconds,
      mainThreadSeconds,
      workerHeaps,
    } = result.memory;
    into.rates.push(rate);
    into.peaks.push(maxRss);
    into.ratios.push(result.seconds / base);
    into.cpu.push(cpuSeconds);
    into.perCpu.push(result.messages / cpuSeconds);
    say(
      `run ${run + 1}${compare ? ` ${build === cli ? 'this build' : 'compared'}` : ''}: ${result.messages} messages in ${result.seconds.toFixed(1)} s, ${rate.toFixed(0)} messages/s, ${cpuSeconds.toFixed(1)} CPU-s (user ${userSeconds?.toFixed(1)}, system ${systemSeconds?.toFixed(1)}; main thread ${mainThreadSeconds?.toFixed(1)}), ${(result.messages / cpuSeconds).toFixed(0)} messages per CPU-s; baseline ${base.toFixed(1)} s (× ${(result.seconds / base).toFixed(2)}); peak RSS ${MB(maxRss)} MB (sampled at its peak: heap ${MB(atPeak.heapUsed)} of ${MB(atPeak.heapTotal)}, external ${MB(atPeak.external)}, array buffers ${MB(atPeak.arrayBuffers)}; workers' largest heaps ${workerHeaps.map(MB).join(', ')} MB); load ${load()}`,
    );
  }
}
for (const [i, build] of builds.entries()) {
  const figures = results[i];
  if (figures === undefined) continue;
  const { rates, peaks, ratios, cpu, perCpu } = figures;
  say(
    `median${compare ? ` (${i === 0 ? 'this build' : `compared: ${build}`})` : ''}: ${median(rates).toFixed(0)} messages/s (target ≥ 30,000), ${median(cpu).toFixed(1)} CPU-s, ${median(perCpu).toFixed(0)} messages per CPU-s, peak RSS ${MB(median(peaks))} MB (target ≤ 300), import ÷ baseline × ${median(ratios).toFixed(2)}`,
  );
}
for (const dir of leftBehind) rmSync(dir, { recursive: true, force: true });
