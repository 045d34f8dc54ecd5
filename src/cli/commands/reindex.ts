import type { Command } from 'commander';
import { reindex, resolveDataDir } from '../../index.js';
import type { CliIo } from '../cli-io.js';
import { onWaitOf, progressOf } from '../import-options.js';
import { ProgressBar } from '../progress-bar.js';
import { neo4jOf, withStoreOptions, type StoreOptions } from '../store-options.js';

export type ReindexOptions = StoreOptions & { quiet?: boolean };

/** `chatgraph reindex`: the store rebuilt from the bundle alone. */
export async function runReindex(options: ReindexOptions, io: CliIo): Promise<void> {
  const bar = new ProgressBar();
  const { conversations, movedAside } = await reindex(resolveDataDir(options.dataDir), {
    neo4j: neo4jOf(options),
    onWait: onWaitOf(io),
    ...(options.quiet ? {} : progressOf(bar)),
  });
  bar.done();
  if (movedAside !== undefined)
    io.out(`the store was damaged: moved aside to ${movedAside}, and built anew`);
  io.out(`re-indexed ${conversations} conversation(s) from the bundle`);
}

export function registerReindex(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('reindex')
      .description('rebuild the searchable graph (embedded, or Neo4j) from the PAM bundle alone'),
  )
    .option('-q, --quiet', 'no progress bar')
    .action((options: ReindexOptions) => runReindex(options, io));
}
