import { exitCodeOf, lostCount } from '../index.js';
import type { ImportReport } from '../index.js';
import { plural } from './plural.js';

type ProviderSummary = ImportReport['totals'];
type ProblemGroup = ImportReport['problems'][number];

const COLUMNS: [keyof ProviderSummary, string][] = [
  ['conversations', 'conversations'],
  ['messages', 'messages'],
  ['branches', 'branches'],
  ['toolCalls', 'tool calls'],
  ['attachments', 'attachments'],
  ['memories', 'memories'],
  ['skipped', 'skipped'],
];

/**
 * The import report as text for a terminal. Routine notices (`info`: inferred times, fixed
 * dates, duplicates) are one line unless `verbose`, so warnings and errors stand out.
 */
export function formatReport(report: ImportReport, options: { verbose?: boolean } = {}): string {
  const lines: string[] = [];
  const names = Object.keys(report.providers);
  const table = [['', ...COLUMNS.map(([, label]) => label)]];
  for (const name of names) {
    const summary = report.providers[name];
    if (summary)
      table.push([name, ...COLUMNS.map(([key]) => summary[key].toLocaleString('en-US'))]);
  }
  if (names.length > 1)
    table.push(['total', ...COLUMNS.map(([key]) => report.totals[key].toLocaleString('en-US'))]);
  const widths = (table[0] ?? []).map((_, c) =>
    Math.max(...table.map((row) => (row[c] ?? '').length)),
  );
  for (const row of table)
    lines.push(
      row
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
        .join('  '),
    );
  const t = report.totals;
  lines.push('');
  lines.push(
    `attachments: ${t.attachmentsCopied} copied into the bundle, ${plural(t.attachmentTexts, 'pasted or extracted text')} written, ${t.attachmentsMissing} referenced but not in the export; ${plural(t.inferredTimestamps, 'message time')} inferred`,
  );
  const masked = Object.entries(report.redactions);
  if (masked.length > 0)
    lines.push(`redacted: ${masked.map(([kind, n]) => `${n} ${kind}`).join(', ')}`);
  const w = report.written;
  lines.push(
    `bundle ${report.bundle}: ${w.created} written, ${w.updated} updated, ${w.unchanged} unchanged, ${plural(w.duplicates, 'duplicate')} across files${keptNewer(t.keptNewer)}${keptApart(t.keptApart)}`,
  );
  lines.push(...formatProblems(report, options));
  return lines.join('\n');
}

/**
 * The problems part of an import's report: notices counted, warnings and errors with examples
 * (file, record, what was wrong), and what was lost with its exit code. Empty when all was read.
 */
export function formatProblems(
  report: ImportReport,
  options: { verbose?: boolean } = {},
): string[] {
  const lines: string[] = [];
  const shown = options.verbose
    ? report.problems
    : report.problems.filter((group) => group.level !== 'info');
  const notices = report.problems.filter((group) => group.level === 'info');
  if (!options.verbose && notices.length > 0)
    lines.push(
      `notices: ${notices.map((g) => `${g.count.toLocaleString('en-US')} ${g.code}`).join(', ')} (details with --verbose or --json)`,
    );
  if (shown.length > 0) {
    lines.push('');
    lines.push('problems:');
    for (const group of shown) lines.push(...formatGroup(group));
  }
  const lost = lostCount(report);
  if (lost > 0) {
    lines.push('');
    lines.push(
      exitCodeOf(report) === 2
        ? `nothing usable was read: ${plural(lost, 'error')} above (exit code 2)`
        : `incomplete: ${lost.toLocaleString('en-US')} ${lost === 1 ? 'record, file or part of the input was' : 'records, files or parts of the input were'} not written; see the errors above (exit code 1)`,
    );
  }
  return lines;
}

function formatGroup(group: ProblemGroup): string[] {
  const lines = [`  ${group.level} ${group.code} ×${group.count}`];
  for (const example of group.examples.slice(0, 5)) {
    const where = [
      example.file,
      example.record,
      example.offset !== undefined ? `byte ${example.offset}` : undefined,
    ]
      .filter((part) => part !== undefined)
      .join(' ');
    lines.push(`    ${where}: ${example.message}`);
  }
  const more = group.count - Math.min(5, group.examples.length);
  if (more > 0)
    lines.push(`    … and ${more} more (all counted; --json lists up to ${group.examples.length})`);
  return lines;
}

// Another conversation came with the id of one of the bundle: both kept, it under its own id.
function keptApart(n: number): string {
  if (n === 0) return '';
  return `; kept ${plural(n, 'conversation')} apart from one of the same id (another conversation)`;
}

// An older export met a newer copy in the bundle (the newer one stays, nothing is lost).
function keptNewer(n: number): string {
  if (n === 0) return '';
  return `; kept the newer copy of ${plural(n, 'conversation')}`;
}
