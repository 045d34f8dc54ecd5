import type { ImportReport } from './import-report.js';

/**
 * The exit code of `convert` and `import`: 0 everything read; 1 done, but records or text
 * from the input were not written (a skipped record, an unreadable file, a truncation, a cut);
 * 2 nothing usable. Notices and warnings (generated ids, fixed dates, files an export points to
 * but does not contain) leave it at 0: `error` is the level of what was lost.
 */
export function exitCodeOf(report: ImportReport): 0 | 1 | 2 {
  const lost = lostCount(report);
  if (lost === 0) return 0;
  const usable =
    report.totals.conversations > 0 ||
    report.totals.memories > 0 ||
    report.problems.some((p) => p.code === 'file-already-imported');
  return usable ? 1 : 2;
}

/** How many records, files or parts of them the input had that were not written. */
export function lostCount(report: ImportReport): number {
  const errors = report.problems
    .filter((p) => p.level === 'error')
    .reduce((sum, p) => sum + p.count, 0);
  return Math.max(errors, report.totals.skipped);
}
