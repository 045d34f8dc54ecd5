// `chatgraph embed` end to end on 1 worker against more (issue 31): a generated ChatGPT export is
// imported once, then each pool size embeds a fresh copy of that data folder (no vector cache)
// for at most the given seconds in a child process (bench/embed-child.mjs), and the texts the
// model embedded a second are printed, in all and per worker, with the load average before and
// after (the machine may be shared: compare figures taken at a low load).
// `node bench/embed-workers.mjs [seconds=60] [conversations=120] [workers…=1 2]`
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeChatgptExport } from '../dist/sample/write-samples.js';

const [seconds = '60', conversations = '120', ...sizes] = process.argv.slice(2);
const workers = sizes.length > 0 ? sizes.map(Number) : [1, 2];
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'dist', 'cli', 'main.js');
const work = join(tmpdir(), `chatgraph-embed-workers-${conversations}`);
const say = (line) => process.stdout.write(`${line}\n`);
const load = () => (loadavg()[0] ?? 0).toFixed(2);

const imported = join(work, 'imported');
if (!existsSync(join(imported, 'chatgraph.sqlite'))) {
  mkdirSync(work, { recursive: true });
  const input = join(work, 'chatgpt.zip');
  await writeChatgptExport(input, { seed: 5, conversations: Number(conversations) });
  execFileSync(process.execPath, [cli, 'import', input, '--data-dir', imported, '-q']);
}
for (const size of workers) {
  const dataDir = join(work, `embed-${size}`);
  rmSync(dataDir, { recursive: true, force: true });
  cpSync(imported, dataDir, { recursive: true });
  const before = load();
  const out = execFileSync(
    process.execPath,
    [join(root, 'bench', 'embed-child.mjs'), dataDir, seconds],
    { env: { ...process.env, CHATGRAPH_EMBED_WORKERS: String(size) }, encoding: 'utf8' },
  );
  const run = JSON.parse(out);
  // Texts the model made a vector for (both passes) a second of the passes (what `embed`
  // reports), and of the whole run (the model's loading and the plans included).
  const passes = run.lastProgress ?? { embedded: 0, seconds: 0 };
  const rate = passes.embedded / passes.seconds;
  say(
    `workers ${size}: ${run.embedded} texts, ${rate.toFixed(1)} texts/s in the passes (${passes.seconds.toFixed(1)} s), ${(rate / size).toFixed(1)} per worker; ${(run.embedded / run.seconds).toFixed(1)} texts/s over the run (${run.seconds.toFixed(1)} s); peak RSS ${(run.maxRssBytes / 1024 / 1024).toFixed(0)} MB (load ${before} before, ${load()} after)`,
  );
  rmSync(dataDir, { recursive: true, force: true });
}
