// The embedding benchmark (issue: recall): texts/s and MB/s of the local model on the CPU for
// short (~20 words), long (~200 words) and mixed texts, by batch size and intra-op threads, with
// peak RSS. Needs the model: `chatgraph model fetch`. `node bench/embed.mjs --quick` runs only
// the chosen defaults. The multilingual model, when installed, is measured on the same texts
// against the default (texts per CPU-second, so per core; its target: a third of the default's),
// and so is the language detection `embed` runs on a sample of the history.
// `node bench/embed.mjs --workers [--quick] [--rounds=3]` measures only the embedding pool
// (issue 31): 1 worker (one session in the main thread, as before the pool) against 2 and more
// worker threads, on the same texts, fed whole and in calls of 32 texts as `embed` feeds them
// (and 64), with texts/s in all and per worker (a worker takes one core), the best of alternated
// runs, and the load average beside each figure (shared machine).
import { Random } from '../dist/sample/random.js';
import { pickTopic, sentence } from '../dist/sample/prose.js';
import {
  openLocalEmbedder,
  DEFAULT_BATCH,
  DEFAULT_TOKEN_BUDGET,
} from '../dist/embed/local-embedder.js';
import { resolveLocalModel } from '../dist/embed/open-embedder.js';
import { MULTILINGUAL_MODEL } from '../dist/embed/model-catalog.js';
import { languagesOf } from '../dist/recall/history-languages.js';
import { ModelNotInstalledError } from '../dist/embed/embed-errors.js';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyWorkers = args.includes('--workers');
const say = (line) => process.stdout.write(`${line}\n`);

function text(random, words) {
  const topic = pickTopic(random);
  let out = '';
  while (out.split(' ').length < words) out += `${sentence(random, topic)} `;
  return out.split(' ').slice(0, words).join(' ');
}

const random = new Random(7);
const corpora = {
  short: Array.from({ length: 200 }, () => text(random, 20)),
  long: Array.from({ length: 48 }, () => text(random, 200)),
  // Real histories mix one-line prompts with long answers: sorting by length pays off here.
  mixed: Array.from({ length: 96 }, () =>
    text(random, random.chance(0.5) ? random.int(5, 40) : random.int(60, 300)),
  ),
};

const spec = await resolveLocalModel({});
let peakRss = 0;
const sample = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

async function measure(name, texts, threads, batchSize, tokenBudget, model = spec) {
  const embedder = await openLocalEmbedder(model, { threads, batchSize, tokenBudget });
  await embedder.embed(texts.slice(0, 4)); // warm-up
  const bytes = texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  await embedder.embed(texts);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  // CPU seconds say what the work costs even on a busy machine, where wall time also counts
  // other processes' turns.
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  await embedder.close();
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  say(
    `${model === spec ? '' : `${model.info.id} `}${name.padEnd(6)} threads ${threads} batch ${String(batchSize).padStart(2)} budget ${String(tokenBudget).padStart(8)}: ${(texts.length / seconds).toFixed(1).padStart(6)} texts/s  ${(bytes / seconds / 1e6).toFixed(3)} MB/s  ${(texts.length / cpuSeconds).toFixed(1).padStart(6)} texts/CPU-s  ${(bytes / cpuSeconds / 1e6).toFixed(3)} MB/CPU-s`,
  );
  return texts.length / cpuSeconds;
}

say(`model ${spec.info.id} (${spec.info.source}), max ${spec.info.maxTokens} tokens`);

/** Texts/s of one pool size on a corpus, fed in calls of `call` texts (0: all in one call). */
async function measurePool(texts, workers, threads, call, ahead = 2) {
  const embedder = await openLocalEmbedder(spec, { workers, threads, ahead });
  // Warm-up: batches enough for every worker (the pool starts at the first call of several).
  await embedder.embed([...texts.slice(0, 2 * workers), ...corpora.short.slice(0, 17 * workers)]);
  const load = loadavg()[0] ?? 0;
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  for (let at = 0; at < texts.length; at += call || texts.length)
    await embedder.embed(texts.slice(at, at + (call || texts.length)));
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  // The process's memory with every session loaded (workers' heaps and sessions included).
  const rss = process.memoryUsage().rss / 1024 / 1024;
  await embedder.close();
  // cpuUsage counts every thread of the process, the workers' too.
  return {
    rate: texts.length / seconds,
    perCpu: texts.length / ((cpu.user + cpu.system) / 1e6),
    rss,
    load,
  };
}

/** The best of `rounds` runs (a shared machine only ever slows a run down), with its load. */
function best(runs) {
  return runs.reduce((a, b) => (b.rate > a.rate ? b : a));
}

function sayPool(name, workers, threads, call, ahead, run) {
  say(
    `${name.padEnd(6)} workers ${workers} threads ${threads} ahead ${ahead} ${call ? `calls of ${call}` : 'one call  '}: ${run.rate.toFixed(1).padStart(6)} texts/s, ${(run.rate / workers).toFixed(1).padStart(6)} per worker  ${run.perCpu.toFixed(1).padStart(6)} texts/CPU-s  RSS ${run.rss.toFixed(0)} MB  (load ${run.load.toFixed(2)})`,
  );
}

if (onlyWorkers) {
  const rounds = Number(args.find((a) => a.startsWith('--rounds='))?.slice(9) ?? 3);
  const sizes = [...new Set([1, 2, availableParallelism()])];
  // [workers, threads, ahead]: the pool sizes, then two intra-op threads a worker (more threads
  // than cores) and one batch handed to a worker at a time, measured to choose the defaults.
  // --quick: the pool sizes alone, fed as `embed` feeds them (while the machine is idle).
  const setups = [
    ...sizes.map((n) => [n, 1, 2]),
    ...(quick
      ? []
      : [
          [2, 2, 2],
          [2, 1, 1],
        ]),
  ];
  for (const [name, texts] of Object.entries(corpora))
    for (const call of quick ? [32] : [0, 32, 64]) {
      /** @type {Awaited<ReturnType<typeof measurePool>>[][]} */
      const runs = setups.map(() => []);
      // Alternated, so a busy spell slows every setup alike.
      for (let round = 0; round < rounds; round++)
        for (const [i, [workers, threads, ahead]] of setups.entries())
          runs[i]?.push(await measurePool(texts, workers, threads, call, ahead));
      const base = best(runs[0] ?? []);
      for (const [i, [workers, threads, ahead]] of setups.entries()) {
        const run = best(runs[i] ?? []);
        sayPool(name, workers, threads, call, ahead, run);
        if (i > 0) say(`  ${(run.rate / base.rate).toFixed(2)}x one worker`);
      }
    }
  process.exit(0);
}
// [threads, batch cap, token budget]: fixed batch sizes (no budget), then the default.
const chosen = [1, DEFAULT_BATCH, DEFAULT_TOKEN_BUDGET];
const configs = quick
  ? [chosen]
  : [
      ...[1, 4, 8, 16].map((batch) => [1, batch, Infinity]),
      chosen,
      [2, DEFAULT_BATCH, DEFAULT_TOKEN_BUDGET],
    ];
for (const [name, texts] of Object.entries(corpora))
  for (const [threads, batch, budget] of configs)
    await measure(name, texts, threads, batch, budget);
const multilingual = await resolveLocalModel({ model: MULTILINGUAL_MODEL }).catch((error) => {
  if (error instanceof ModelNotInstalledError) return undefined;
  throw error;
});
if (!multilingual)
  say(
    `${MULTILINGUAL_MODEL} is not installed: chatgraph model fetch --model ${MULTILINGUAL_MODEL}`,
  );
else
  for (const [name, texts] of Object.entries(corpora)) {
    const base = await measure(name, texts, ...chosen);
    const other = await measure(name, texts, ...chosen, multilingual);
    say(
      `${name}: ${MULTILINGUAL_MODEL} runs at ${(other / base).toFixed(2)}x the default per core`,
    );
  }
const labelled = JSON.parse(
  readFileSync(new URL('../test/fixtures/languages/chat-messages.json', import.meta.url), 'utf8'),
);
const messages = Object.values(labelled).flat();
await languagesOf(messages.slice(0, 1)); // loads the detector
const detectStart = process.hrtime.bigint();
const rounds = 25;
for (let round = 0; round < rounds; round++) await languagesOf(messages);
const detectSeconds = Number(process.hrtime.bigint() - detectStart) / 1e9;
say(
  `language detection (tinyld): ${((rounds * messages.length) / detectSeconds).toFixed(0)} short messages/s`,
);
clearInterval(sample);
say(`peak RSS ${(peakRss / 1024 / 1024).toFixed(0)} MB`);
