import { findProvider } from '../api/sources.js';
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

/** What every other command calls a provider: its source (`claude-ai`), not its PAM name. */
function sourceName(name: string): string {
  return findProvider(name)?.source ?? name;
}

const isEmpty = (summary: ProviderSummary): boolean => COLUMNS.every(([key]) => summary[key] === 0);

/**
 * The import report as text for a terminal. Routine notices (`info`: inferred times, fixed
 * dates, duplicates) are one line unless `verbose`, so warnings and errors stand out. A source
 * that added nothing has no row; an import that added nothing at all (the same files again)
 * says so in one line instead of a table of zeros.
 */
export function formatReport(report: ImportReport, options: { verbose?: boolean } = {}): string {
  const lines: string[] = [];
  const w = report.written;
  const skipped = report.problems.find((p) => p.code === 'file-already-imported');
  if (nothingNew(report)) {
    lines.push(
      skipped
        ? `nothing new: ${skipped.count === 1 ? 'the file was' : `the ${String(skipped.count)} files were`} imported before, unchanged (--force reads ${skipped.count === 1 ? 'it' : 'them'} again)`
        : `nothing new: the bundle ${report.bundle} already holds all of it`,
    );
    lines.push(...formatProblems(report, { ...options, leaveOut: 'file-already-imported' }));
    return lines.join('\n');
  }
  const names = Object.keys(report.providers);
  const table = [['', ...COLUMNS.map(([, label]) => label)]];
  const rows = names.filter((name) => {
    const summary = report.providers[name];
    return summary !== undefined && !isEmpty(summary);
  });
  for (const name of rows) {
    const summary = report.providers[name];
    if (summary)
      table.push([
        sourceName(name),
        ...COLUMNS.map(([key]) => summary[key].toLocaleString('en-US')),
      ]);
  }
  if (rows.length > 1)
    table.push(['total', ...COLUMNS.map(([key]) => report.totals[key].toLocaleString('en-US'))]);
  const widths = (table[0] ?? []).map((_, c) =>
    Math.max(...table.map((row) => (row[c] ?? '').length)),
  );
  if (rows.length > 0)
    for (const row of table)
      lines.push(
        row
          .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] ?? 0) : cell.padStart(widths[c] ?? 0)))
          .join('  '),
      );
  const t = report.totals;
  if (lines.length > 0) lines.push('');
  lines.push(
    `attachments: ${t.attachmentsCopied} copied into the bundle, ${plural(t.attachmentTexts, 'pasted or extracted text')} written, ${t.attachmentsMissing} referenced but not in the export; ${plural(t.inferredTimestamps, 'message time')} inferred`,
  );
  const masked = Object.entries(report.redactions);
  if (masked.length > 0)
    lines.push(`redacted: ${masked.map(([kind, n]) => `${n} ${kind}`).join(', ')}`);
  lines.push(
    `bundle ${report.bundle}: ${w.created} written, ${w.updated} updated, ${w.unchanged} unchanged, ${plural(w.duplicates, 'duplicate')} across files${keptNewer(t.keptNewer)}${keptApart(t.keptApart)}`,
  );
  lines.push(...formatProblems(report, options));
  return lines.join('\n');
}

/**
 * Whether an import added nothing: no conversation, memory or anything else counted, nothing
 * written or even seen unchanged in the bundle, and nothing lost (a loss is said in full).
 */
export function nothingNew(report: ImportReport): boolean {
  const w = report.written;
  return (
    isEmpty(report.totals) &&
    w.created + w.updated + w.unchanged + w.duplicates === 0 &&
    lostCount(report) === 0 &&
    report.problems.every((p) => p.level === 'info')
  );
}

/**
 * The problems part of an import's report: notices counted, warnings and errors with examples
 * (file, record, what was wrong), and what was lost with its exit code. Empty when all was read.
 */
export function formatProblems(
  report: ImportReport,
  options: { verbose?: boolean; leaveOut?: string } = {},
): string[] {
  const lines: string[] = [];
  const problems = report.problems.filter((group) => group.code !== options.leaveOut);
  const shown = options.verbose ? problems : problems.filter((group) => group.level !== 'info');
  const notices = problems.filter((group) => group.level === 'info');
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
