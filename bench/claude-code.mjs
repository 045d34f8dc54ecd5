// The Claude Code benchmark: a generated ~/.claude/projects of thousands of sessions, imported
// end to end. `node bench/claude-code.mjs [--sessions 3000]`.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeClaudeCodeProjects } from '../dist/sample/claude-code-sample.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const sessions = args.includes('--sessions') ? Number(args[args.indexOf('--sessions') + 1]) : 3000;
const projects = join(root, '.bench', `claude-code-${sessions}`);
if (!existsSync(projects)) {
  process.stderr.write(`generating ${sessions} Claude Code sessions…\n`);
  await writeClaudeCodeProjects(projects, { seed: 9, sessions });
}
const size = (path) =>
  statSync(path).isDirectory()
    ? readdirSync(path).reduce((s, n) => s + size(join(path, n)), 0)
    : statSync(path).size;
const bytes = size(projects);
const data = join(root, '.bench', 'claude-code-data');
rmSync(data, { recursive: true, force: true });
const started = process.hrtime.bigint();
const report = JSON.parse(
  execFileSync(
    process.execPath,
    [join(root, 'dist', 'cli', 'main.js'), 'import', projects, '--data-dir', data, '--json', '-q'],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  ),
);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
const summary = report.providers['claude-code'];
process.stdout.write(
  `Claude Code import: ${sessions} sessions, ${(bytes / 1024 / 1024).toFixed(0)} MB of .jsonl, ${summary.messages} messages, ${summary.toolCalls} tool calls in ${seconds.toFixed(1)} s: ${(bytes / 1024 / 1024 / seconds).toFixed(1)} MB/s, ${(sessions / seconds).toFixed(0)} sessions/s\n`,
);
