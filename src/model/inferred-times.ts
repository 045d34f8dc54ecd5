import type { Diagnostic } from './diagnostic.js';
import { plural } from './plural.js';

/** Tells how many messages took a time from elsewhere (at every build, grown or not). */
export function reportInferred(
  inferred: number,
  options: { report: (diagnostic: Omit<Diagnostic, 'file'>) => void; record: string },
): void {
  if (inferred === 0) return;
  options.report({
    level: 'info',
    code: 'timestamp-inferred',
    message: `${plural(inferred, 'message')} had no time and took the nearest known one`,
    record: options.record,
  });
}
