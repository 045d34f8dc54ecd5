// The usage benchmark (issue 45): `chatgraph usage --by day --breakdown --json` over a data folder
// of a million coding-agent messages with token counts (Claude Code on three models, Codex on
// three, days over two and a half years), in-process and as a whole process beside `node -e 0`.
// `node bench/usage.mjs [--messages 1000000] [--runs 9]`; the folders are cached in `.bench/`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3-multiple-ciphers';
import { SqliteStore } from '../dist/sqlite.js';
import { layoutOf } from '../dist/folder/layout.js';
import { SHIPPED_PRICES, usageReport } from '../dist/api/query.js';
import { writeClaudeCodeProjects } from '../dist/sample/claude-code-sample.js';
import { writeCodexSessions } from '../dist/sample/codex-sample.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const messages = option('--messages', 1_000_000);
const runs = option('--runs', 9);
const cli = join(root, 'dist', 'cli', 'main.js');
// A zone with summer time: days cut at a local midnight that moves twice a year.
const TZ = 'America/New_York';
const say = (line) => process.stdout.write(`${line}\n`);

// About 28 messages a session in both generators: half the messages from each agent.
const sessions = Math.ceil(messages / 56);
const claudeCode = join(root, '.bench', `usage-claude-code-${sessions}`);
const codex = join(root, '.bench', `usage-codex-${sessions}`);
if (!existsSync(claudeCode)) {
  process.stderr.write(`generating ${sessions} Claude Code sessions with usage…\n`);
  await writeClaudeCodeProjects(`${claudeCode}.tmp`, { seed: 45, sessions, usage: true });
  execFileSync('mv', [`${claudeCode}.tmp`, claudeCode]);
}
if (!existsSync(codex)) {
  process.stderr.write(`generating ${sessions} Codex sessions…\n`);
  await writeCodexSessions(`${codex}.tmp`, { seed: 46, sessions });
  execFileSync('mv', [`${codex}.tmp`, codex]);
}

const data = join(root, '.bench', `usage-data-${sessions}`);
const imported = join(data, 'bench-imported');
if (!existsSync(imported)) {
  rmSync(data, { recursive: true, force: true });
  for (const folder of [claudeCode, codex]) {
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, [cli, 'import', folder, '--data-dir', data, '-q'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    process.stderr.write(
      `imported ${folder} in ${(Number(process.hrtime.bigint() - t) / 1e9).toFixed(0)} s\n`,
    );
  }
  writeFileSync(imported, '');
}

const sizeOf = (path) =>
  statSync(path).isDirectory()
    ? readdirSync(path).reduce((s, n) => s + sizeOf(join(path, n)), 0)
    : statSync(path).size;

const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
const counts = await store.counts();
await store.close();
const raw = new Database(layoutOf(data).store, { readonly: true });
const slots = raw.prepare('SELECT count(*) FROM token_counts').pluck().get();
raw.close();
say(
  `usage folder: ${counts.nodes.Message ?? 0} messages, ${counts.nodes.Conversation ?? 0} sessions (Claude Code and Codex, ${(sizeOf(claudeCode) / 2 ** 20 + sizeOf(codex) / 2 ** 20).toFixed(0)} MB of logs), ${String(slots)} summed token rows`,
);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};
const range = (values) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)} ms`;
const ms = (start) => Number(process.hrtime.bigint() - start) / 1e6;

// In-process: open the store, the report, its JSON, close; the first run apart (cold pages).
process.env.TZ = TZ;
const inProcess = [];
let rows = 0;
for (let i = 0; i <= runs; i++) {
  const t = process.hrtime.bigint();
  const reader = SqliteStore.open(layoutOf(data).store, { readonly: true });
  const report = await usageReport(reader.usage, {
    by: 'day',
    breakdown: true,
    timeZone: TZ,
    prices: SHIPPED_PRICES,
  });
  JSON.stringify(report, null, 2);
  await reader.close();
  rows = report.rows.length;
  inProcess.push(ms(t));
}
const [firstRun, ...warm] = inProcess;
say(
  `usage --by day --breakdown in-process at ${counts.nodes.Message ?? 0} messages (${rows} rows, TZ=${TZ}): median ${median(warm).toFixed(0)} ms over ${runs} (${range(warm)}), first ${firstRun?.toFixed(0)} ms (target < 1,000 ms)`,
);

// Whole process: the CLI against `node -e 0`, alternating so both see the same machine.
const env = { ...process.env, TZ };
const whole = [];
const bare = [];
for (let i = 0; i < runs; i++) {
  let t = process.hrtime.bigint();
  execFileSync(process.execPath, ['-e', '0'], { env });
  bare.push(ms(t));
  t = process.hrtime.bigint();
  const out = execFileSync(
    process.execPath,
    [cli, 'usage', '--by', 'day', '--breakdown', '--json', '--data-dir', data],
    { env, encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  whole.push(ms(t));
  if (i === 0 && JSON.parse(out).rows.length !== rows)
    throw new Error('the CLI and the library disagree on the rows');
}
say(
  `chatgraph usage --by day --breakdown --json as a process: median ${median(whole).toFixed(0)} ms (${range(whole)}), node -e 0 ${median(bare).toFixed(0)} ms (${range(bare)}): ${(median(whole) - median(bare)).toFixed(0)} ms over bare node (target < 1,000 ms)`,
);
