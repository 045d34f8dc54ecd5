// Cold commands (issue 46): whole processes of the file `package.json`'s `bin.chatgraph` names,
// each beside a bare `node -e 0` run in the same round, medians of --runs rounds (7 by default).
// `node bench/cold-search.mjs [--messages 64000] [--runs 7] [--only NAME] [--cli FILE] [--against FILE]`
// Measured: `--version`; `search WORD --mode keyword` on the folder before and after `embed`;
// `search WORD` (the default mode: hybrid once embedded); and, beside them, a bare script that
// loads the folder's model and embeds one query (the part of a hybrid search that is the
// model's). Each timed search looks for a word not searched before (no answer can be cached).
// Embedding 64,000 messages takes hours here, so the embedded folder's vectors are unit vectors
// of noise filed under the installed default model's name: a search loads and scans them as it
// would real ones (the cost measured here), only their meaning is nonsense.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3-multiple-ciphers';
import { SqliteStore } from '../dist/sqlite.js';
import { layoutOf } from '../dist/folder/layout.js';
import { writeChatgptExport } from '../dist/sample/write-samples.js';
import { fillNoiseVectors, seededGaussian, unitVector } from './noise-vectors.mjs';
import { openEmbedder } from '../dist/embed/open-embedder.js';
import { encodeVectors, makeNoise } from '../dist/recall/meaning-noise.js';

const storeOf = (dataDir) => layoutOf(dataDir).store;

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const messages = option('--messages', 64_000);
const runs = option('--runs', 7);
const work = join(root, '.bench');
mkdirSync(work, { recursive: true });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// `--cli FILE` times another build's CLI on the same folders (a before/after in one session);
// `--against FILE` times another build in the same rounds, each of its runs right after (or, every
// other round, before) the first build's, with the same word: under a load that moves from minute
// to minute, the two columns are comparable where two separate runs of the bench are not. With
// it, each row also gives user + system CPU seconds (GNU time), steadier than wall time.
const cli = args.includes('--cli')
  ? (args[args.indexOf('--cli') + 1] ?? '')
  : join(root, pkg.bin.chatgraph);
const against = args.includes('--against') ? args[args.indexOf('--against') + 1] : undefined;
const say = (line) => process.stdout.write(`${line}\n`);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

const zip = join(work, `chatgpt-${messages}-messages.zip`);
if (!existsSync(zip)) {
  process.stderr.write(`generating ${zip}…\n`);
  await writeChatgptExport(zip, { seed: 46, targetMessages: messages });
}
const plain = join(work, `cold-${messages}-plain`);
const embedded = join(work, `cold-${messages}-embedded`);
if (!existsSync(storeOf(plain))) {
  process.stderr.write(`importing into ${plain}…\n`);
  execFileSync(process.execPath, [cli, 'import', zip, '--data-dir', plain, '-q', '--json'], {
    stdio: 'ignore',
  });
}
const MODEL = { id: 'all-minilm-l6-v2', dimensions: 384 };
if (!existsSync(storeOf(embedded))) {
  process.stderr.write(`filling ${embedded} with noise vectors…\n`);
  cpSync(plain, embedded, { recursive: true });
  rmSync(join(embedded, 'write.lock'), { force: true });
  await fillVectors(embedded);
}
// What `chatgraph embed` leaves beside the vectors (embedding.json): the model, and its vectors
// of the texts that mean nothing, from which each query's noise level is read. Without them every
// hybrid search embedded the 40 noise texts again (a cost no embedded folder has): folders made
// by an earlier version of this bench get them here.
const settingsFile = layoutOf(embedded).embeddingSettings;
if (!existsSync(settingsFile)) {
  process.stderr.write(`saving the noise vectors in ${settingsFile}…\n`);
  const embedder = await openEmbedder({ model: MODEL.id, workers: 1 });
  const vectors = encodeVectors(await makeNoise((texts) => embedder.embed(texts)));
  await embedder.close();
  writeFileSync(
    settingsFile,
    `${JSON.stringify({ model: MODEL.id, noise: { model: embedder.model.id, vectors } }, null, 2)}\n`,
  );
}

async function fillVectors(dataDir) {
  const gaussian = seededGaussian(46);
  const store = SqliteStore.open(storeOf(dataDir));
  await fillNoiseVectors(store, storeOf(dataDir), MODEL, () =>
    unitVector(MODEL.dimensions, gaussian),
  );
  await store.close();
}

// Words the history holds, each searched once: the rarer half of the vocabulary's sample.
const words = (() => {
  const db = new Database(storeOf(plain), { readonly: true });
  const texts = db
    .prepare(`SELECT content FROM "Message" WHERE content IS NOT NULL LIMIT 4000`)
    .pluck()
    .all();
  db.close();
  const seen = new Map();
  for (const text of texts)
    for (const word of String(text)
      .toLowerCase()
      .match(/\b[a-z]{6,12}\b/g) ?? [])
      seen.set(word, (seen.get(word) ?? 0) + 1);
  return [...seen.entries()].sort((a, b) => a[1] - b[1]).map(([w]) => w);
})();
let next = 0;
const freshWord = () => {
  const word = words[next++];
  if (word === undefined) throw new Error('out of fresh words');
  return word;
};

/** One whole process: wall seconds, peak RSS (MB) and CPU seconds, by GNU time. */
function measure(argv) {
  const out = spawnSync('/usr/bin/time', ['-f', '%e %M %U %S', ...argv], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`${argv.join(' ')} failed: ${out.stderr}`);
  const [wall = NaN, rss = NaN, user = NaN, system = NaN] = (
    out.stderr.trim().split('\n').at(-1) ?? ''
  )
    .split(' ')
    .map(Number);
  return { wall, rss: rss / 1024, cpu: user + system };
}

const queryScript = join(work, 'embed-one-query.mjs');
const embedQueryScript = `import { openEmbedder } from ${JSON.stringify(join(root, 'dist/embed/open-embedder.js'))};
const e = await openEmbedder({ model: '${MODEL.id}', workers: 1 });
await e.embed([process.argv[2]]);
await e.close();
`;
writeFileSync(queryScript, embedQueryScript);

const cases = {
  'node -e 0': () => [process.execPath, '-e', '0'],
  'chatgraph --version': () => [process.execPath, cli, '--version'],
  'search WORD --mode keyword, not embedded': () => [
    process.execPath,
    cli,
    'search',
    freshWord(),
    '--mode',
    'keyword',
    '--data-dir',
    plain,
  ],
  'search WORD --mode keyword, embedded': () => [
    process.execPath,
    cli,
    'search',
    freshWord(),
    '--mode',
    'keyword',
    '--data-dir',
    embedded,
  ],
  'search WORD (default mode), embedded': () => [
    process.execPath,
    cli,
    'search',
    freshWord(),
    '--data-dir',
    embedded,
  ],
  'a bare script: open the model, embed one query': () => [
    process.execPath,
    queryScript,
    freshWord(),
  ],
};
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
/** @type {Record<string, { wall: number, rss: number, cpu: number }[]>} */
const results = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
/** The same, for `--against`'s build. @type {Record<string, { wall: number, rss: number, cpu: number }[]>} */
const otherResults = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
for (let round = 0; round < runs; round++)
  for (const [name, argv] of Object.entries(cases))
    if (only === undefined || name === 'node -e 0' || name.includes(only)) {
      const first = argv();
      const other =
        against !== undefined && first[1] === cli
          ? [first[0], against, ...first.slice(2)]
          : undefined;
      if (other !== undefined && round % 2 === 1) otherResults[name]?.push(measure(other));
      results[name]?.push(measure(first));
      if (other !== undefined && round % 2 === 0) otherResults[name]?.push(measure(other));
    }

const bare = median((results['node -e 0'] ?? []).map((r) => r.wall));
say(`cold commands of ${cli}, ${messages} messages, medians of ${runs} rounds; ${load()}`);
const row = (list) => {
  const wall = median(list.map((r) => r.wall));
  return `${wall.toFixed(2)} s, ${median(list.map((r) => r.cpu)).toFixed(2)} s CPU | ${(wall / bare).toFixed(1)}× | ${median(list.map((r) => r.rss)).toFixed(0)} MB`;
};
if (against === undefined) {
  say('| command | wall | × bare node | peak RSS |');
  say('| --- | --- | --- | --- |');
  for (const [name, list] of Object.entries(results)) {
    if (list.length === 0) continue;
    const wall = median(list.map((r) => r.wall));
    say(
      `| ${name} | ${wall.toFixed(2)} s | ${(wall / bare).toFixed(1)}× | ${median(list.map((r) => r.rss)).toFixed(0)} MB |`,
    );
  }
} else {
  say(`beside ${against}, in the same rounds`);
  say(
    '| command | wall, CPU | × bare node | peak RSS | against: wall, CPU | × bare node | peak RSS |',
  );
  say('| --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, list] of Object.entries(results)) {
    if (list.length === 0) continue;
    const other = otherResults[name] ?? [];
    say(`| ${name} | ${row(list)} | ${other.length > 0 ? row(other) : '– | – | –'} |`);
  }
}

function load() {
  return `load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(', ')}`;
}
