// The benchmark: `npm run bench [-- --mb 1024]`. Generates a realistic ChatGPT export of the
// chosen size (cached in .bench/), then measures convert throughput and peak RSS in a child
// process, and plain JSON.parse throughput of the same bytes as the ceiling.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeChatgptExport } from '../dist/sample/write-samples.js';
import { JsonSplitter } from '../dist/read/json-splitter.js';
import { openZip } from '../dist/read/zip.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const mb = Number(args[args.indexOf('--mb') + 1] || 1024) || 1024;
const work = join(root, '.bench');
mkdirSync(work, { recursive: true });

const exportPath = join(work, `chatgpt-${mb}mb.zip`);
if (!existsSync(exportPath)) {
  const started = Date.now();
  process.stderr.write(`generating a ${mb} MB ChatGPT export…\n`);
  await writeChatgptExport(exportPath, { seed: 42, targetBytes: mb * 1024 * 1024 });
  process.stderr.write(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

// The ceiling: JSON.parse alone over the same bytes, cut into ~64 MB documents (V8 strings
// stop at 512 MB, so a whole 1 GB export cannot be one JSON.parse call).
async function jsonParseCeiling() {
  const { entries } = await openZip(exportPath, 'bench');
  const entry = entries.find((e) => e.path === 'conversations.json');
  if (!entry) throw new Error(`${exportPath}: no conversations.json`);
  const splitter = new JsonSplitter();
  let batch = [];
  let batchBytes = 0;
  let parseSeconds = 0;
  let total = 0;
  const flush = () => {
    if (batch.length === 0) return;
    const pieces = [Buffer.from('[')];
    batch.forEach((bytes, i) =>
      pieces.push(i === 0 ? bytes : Buffer.concat([Buffer.from(','), bytes])),
    );
    pieces.push(Buffer.from(']'));
    const buffer = Buffer.concat(pieces);
    const t = process.hrtime.bigint();
    JSON.parse(buffer.toString('utf8'));
    parseSeconds += Number(process.hrtime.bigint() - t) / 1e9;
    total += buffer.length;
    batch = [];
    batchBytes = 0;
  };
  for await (const chunk of await entry.open()) {
    for (const item of splitter.push(chunk)) {
      if (item.kind !== 'record') continue;
      batch.push(Buffer.from(item.bytes));
      batchBytes += item.bytes.length;
      if (batchBytes > 64 * 1024 * 1024) flush();
    }
  }
  flush();
  return total / 1024 / 1024 / parseSeconds;
}

const out = join(work, 'bundle');
rmSync(out, { recursive: true, force: true });
const result = JSON.parse(
  execFileSync(process.execPath, [join(root, 'bench', 'convert-child.mjs'), exportPath, out], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  }),
);
const ceiling = await jsonParseCeiling();
const mbps = result.bytes / 1024 / 1024 / result.seconds;
const lines = [
  `export: ${exportPath} (${(statSync(exportPath).size / 1024 / 1024).toFixed(0)} MB zipped, ${(result.bytes / 1024 / 1024).toFixed(0)} MB of conversations.json)`,
  `conversations: ${result.conversations}, messages: ${result.messages}`,
  `convert: ${result.seconds.toFixed(1)} s, ${mbps.toFixed(1)} MB/s (target ≥ 50 MB/s)`,
  `peak RSS: ${(result.maxRssBytes / 1024 / 1024).toFixed(0)} MB (target < 300 MB)`,
  `ceiling, plain JSON.parse of the same bytes: ${ceiling.toFixed(1)} MB/s`,
  `problems: ${result.problems.join(', ') || 'none'}`,
];
process.stdout.write(`${lines.join('\n')}\n`);
rmSync(out, { recursive: true, force: true });
