// The export benchmark: `node bench/export.mjs [--mb 200]`. Imports a generated ChatGPT export of
// that size (cached in .bench/), then exports it as Markdown and as HTML, each in a child process
// (its peak RSS its own): messages/s, MB/s written, peak RSS; then again with nothing changed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);

if (args[0] === '--child') {
  // One export, timed, in this process.
  const [, dataDir = '', given = 'markdown', out = ''] = args;
  const format = /** @type {'markdown' | 'obsidian' | 'html' | 'jsonl'} */ (given);
  const { DataFolder } = await import('../dist/index.js');
  const folder = await DataFolder.open(dataDir, { readonly: true });
  const started = process.hrtime.bigint();
  const report = await folder.exportConversations({ format, out });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await folder.close();
  process.stdout.write(
    JSON.stringify({ ...report, seconds, maxRssBytes: process.resourceUsage().maxRSS * 1024 }),
  );
  process.exit(0);
}

const mb = Number(args[args.indexOf('--mb') + 1] || 200) || 200;
const work = join(root, '.bench');
mkdirSync(work, { recursive: true });
const cli = join(root, 'dist', 'cli', 'main.js');

const exportPath = join(work, `chatgpt-${mb}mb.zip`);
if (!existsSync(exportPath)) {
  const { writeChatgptExport } = await import('../dist/sample/write-samples.js');
  process.stderr.write(`generating a ${mb} MB ChatGPT export…\n`);
  await writeChatgptExport(exportPath, { seed: 42, targetBytes: mb * 1024 * 1024 });
}
const dataDir = join(work, `export-data-${mb}mb`);
if (!existsSync(join(dataDir, 'bundle'))) {
  process.stderr.write(`importing it into ${dataDir}…\n`);
  execFileSync(process.execPath, [cli, 'import', exportPath, '--data-dir', dataDir, '-q'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

function child(format, out) {
  return JSON.parse(
    execFileSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--child', dataDir, format, out],
      { encoding: 'utf8', maxBuffer: 1 << 26 },
    ),
  );
}

const lines = [`export of ${exportPath} (imported into ${dataDir})`];
for (const format of ['markdown', 'html']) {
  const out = join(work, `export-${format}-${mb}mb`);
  rmSync(out, { recursive: true, force: true });
  const first = child(format, out);
  const again = child(format, out);
  const written = first.bytesWritten / 1024 / 1024;
  lines.push(
    `${format}: ${first.conversations} conversations, ${first.messages} messages in ${first.seconds.toFixed(1)} s: ${(first.messages / first.seconds).toFixed(0)} messages/s, ${(written / first.seconds).toFixed(1)} MB/s written (${written.toFixed(1)} MB in ${first.written} files), peak RSS ${(first.maxRssBytes / 1024 / 1024).toFixed(0)} MB`,
    `${format}, nothing changed: ${again.seconds.toFixed(1)} s, ${again.written} files written, ${again.unchanged} unchanged, peak RSS ${(again.maxRssBytes / 1024 / 1024).toFixed(0)} MB`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
