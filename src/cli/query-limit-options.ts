import type { Command } from 'commander';
import type { QueryLimits } from '../api/query.js';

/** The options `query`, `serve` and `mcp` share to bound a Cypher query. */
export interface QueryLimitOptions {
  queryTimeout?: string;
  queryMemory?: string;
}

/** What a command's `--query-timeout` stops: `query` runs Cypher only, a server both. */
export type TimedWork = 'cypher' | 'cypher-and-search';

/** Adds `--query-timeout <s>` and `--query-memory <MB>`, naming this command's defaults. */
export function withQueryLimitOptions(
  command: Command,
  defaults: QueryLimits,
  timed: TimedWork,
): Command {
  const stopped = timed === 'cypher' ? 'the Cypher query' : 'a Cypher query or a search';
  return command
    .option(
      '--query-timeout <s>',
      `stop ${stopped} after this many seconds (default ${defaults.timeoutSeconds})`,
    )
    .option(
      '--query-memory <MB>',
      `stop a Cypher query that needs more memory than this, in MB (default ${defaults.memoryMb}; the embedded store)`,
    );
}
