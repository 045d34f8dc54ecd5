import type { Diagnostic } from '../index.js';
import type { CliIo } from './cli-io.js';
import { plural } from './plural.js';

/** Names each bundle file a reindex or push left out, on stderr; exit code 1 when there are any. */
export function reportLeftOut(problems: readonly Diagnostic[], io: CliIo): 0 | 1 {
  for (const problem of problems) io.err(`chatgraph: ${problem.file ?? ''}: ${problem.message}`);
  if (problems.length > 0) io.err(`chatgraph: ${plural(problems.length, 'bundle file')} left out`);
  return problems.length > 0 ? 1 : 0;
}
