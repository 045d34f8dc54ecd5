import type { Command } from 'commander';
import type { QueryLimits } from '../index.js';

/** The options `query`, `serve` and `mcp` share to bound a Cypher query. */
export interface QueryLimitOptions {
  queryTimeout?: string;
  queryMemory?: string;
}

/** Adds `--query-timeout <s>` and `--query-memory <MB>`, naming this command's defaults. */
export function withQueryLimitOptions(command: Command, defaults: QueryLimits): Command {
  return command
    .option(
      '--query-timeout <s>',
      `stop a Cypher query or a search after this many seconds (default ${defaults.timeoutSeconds})`,
    )
    .option(
      '--query-memory <MB>',
      `stop a Cypher query that needs more memory than this, in MB (default ${defaults.memoryMb}; the embedded store)`,
    );
}
