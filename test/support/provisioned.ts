import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './shared.js';

/**
 * The path of a tool `npm run provision` installs into the checkout (it runs before every
 * `npm test`); a missing one fails the test file at once with the command that installs it,
 * never a silent skip.
 */
export function provisioned(...path: string[]): string {
  const full = join(ROOT, ...path);
  if (!existsSync(full))
    throw new Error(`${full} is missing: run \`npm run provision\` (npm test runs it first)`);
  return full;
}
