// Runs one conversion in its own process, so its peak RSS is the conversion's alone.
import { convertExports } from '../dist/index.js';

const [input, out] = process.argv.slice(2);
if (!input || !out) throw new Error('usage: convert-child.mjs <export> <out>');
const started = process.hrtime.bigint();
const report = await convertExports([input], { out, importedAt: new Date('2026-01-01T00:00:00Z') });
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(
  JSON.stringify({
    seconds,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    bytes: report.files
      .filter((f) => f.role === 'conversations')
      .reduce((s, f) => s + (f.bytes ?? 0), 0),
    conversations: report.totals.conversations,
    messages: report.totals.messages,
    problems: report.problems.map((p) => `${p.code}×${p.count}`),
  }),
);
