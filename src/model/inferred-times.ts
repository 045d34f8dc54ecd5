import type { Diagnostic } from './diagnostic.js';

/** Tells how many messages took a time from elsewhere (at every build, grown or not). */
export function reportInferred(
  inferred: number,
  options: { report: (diagnostic: Omit<Diagnostic, 'file'>) => void; record: string },
): void {
  if (inferred === 0) return;
  options.report({
    level: 'info',
    code: 'timestamp-inferred',
    message: `${inferred} message(s) had no time and took the nearest known one`,
    record: options.record,
  });
}
