// The embed plan's estimate against the time taken (issue 31): imports each export into a fresh
// data folder, embeds it with no vector cache, and prints per pass the chunks, the estimate, the
// CPU seconds and the wall seconds, with the load average (the machine may be shared: the
// estimate is free cores' pace, one a worker; CPU seconds over the workers are what to compare
// it with when it is busy). `CHATGRAPH_EMBED_WORKERS` sets the workers.
// `node bench/embed-plan.mjs [--first-pass] [export…]` (default: the public fixtures);
// --first-pass stops after the one-vector-a-conversation pass (time to full coverage).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataFolder } from '../dist/index.js';

const cli = fileURLToPath(new URL('../dist/cli/main.js', import.meta.url));
const args = process.argv.slice(2);
const firstPass = args.includes('--first-pass');
const shared = process.env.CHATGRAPH_SHARED ?? '/work/shared';
const inputs = args.filter((a) => !a.startsWith('--'));
const exports = inputs.length
  ? inputs
  : readdirSync(join(shared, 'fixtures'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(shared, 'fixtures', d.name));
const say = (line) => process.stdout.write(`${line}\n`);
const load = () => (loadavg()[0] ?? 0).toFixed(1);
const cpuSeconds = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

// Printed as each pass ends: a long second pass can be cut short after the first is known.
function print(input, { plan, model, wall, cpu, loadBefore, loadAfter }) {
  // The estimate is the wall time on the pool's workers; CPU seconds (every thread's) compare
  // with it times the workers (a conversation's own cost, not shared, is counted that often too).
  const cpuEstimate = plan.seconds * (plan.workers ?? 1);
  say(
    `${input.split('/').slice(-2).join('/')} ${model} ${plan.pass}: ${plan.conversations} conversations, ${plan.chunks} chunks (${plan.chunks - plan.cached} to embed, ${plan.tokens} tokens), ${plan.workers ?? 1} workers: estimate ${plan.seconds.toFixed(2)} s, CPU ${cpu.toFixed(2)} s (${((cpu / cpuEstimate - 1) * 100).toFixed(0)}%), wall ${wall.toFixed(2)} s (${((wall / plan.seconds - 1) * 100).toFixed(0)}%), load ${loadBefore}→${loadAfter}`,
  );
}

for (const input of exports) {
  const dataDir = mkdtempSync(join(tmpdir(), 'chatgraph-embed-plan-'));
  execFileSync(process.execPath, [cli, 'import', '--data-dir', dataDir, input], {
    stdio: 'ignore',
  });
  const folder = await DataFolder.open(dataDir);
  const controller = new AbortController();
  let current;
  // A pass ends with its last progress (the next pass's plan, cutting every text, is not in it).
  const mark = () => {
    if (!current) return;
    current.wall = Number(process.hrtime.bigint() - current.started) / 1e9;
    current.cpu = cpuSeconds(current.cpuStart);
  };
  const close = () => {
    if (!current) return;
    if (current.wall === undefined) mark();
    current.loadAfter = load();
    print(input, current);
    current = undefined;
  };
  const report = await folder.embed({
    signal: controller.signal,
    onProgress: mark,
    onPlan: (plan, model) => {
      close();
      if (firstPass && plan.pass === 'chunks') {
        controller.abort();
        return;
      }
      current = {
        plan,
        model: model.id,
        loadBefore: load(),
        started: process.hrtime.bigint(),
        cpuStart: process.cpuUsage(),
      };
    },
  });
  close();
  await folder.close();
  rmSync(dataDir, { recursive: true, force: true });
  say(`  embedded ${report.embedded} + ${report.cached} cached, gists ${report.gists}`);
}
