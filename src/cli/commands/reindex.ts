import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { onWaitOf, progressOf } from '../import-options.js';
import { reportLeftOut } from '../left-out.js';
import { ProgressBar } from '../progress-bar.js';
import { openForWriting, withStoreOptions, type StoreOptions } from '../store-options.js';
import { plural } from '../plural.js';

export type ReindexOptions = StoreOptions & { quiet?: boolean; json?: boolean };

/** `chatgraph reindex`: the store rebuilt from the bundle alone. */
export async function runReindex(options: ReindexOptions, io: CliIo): Promise<void> {
  const bar = new ProgressBar();
  const folder = await openForWriting(options, { onWait: onWaitOf(io) });
  const { conversations, movedAside, problems } = await folder.reindex({
    ...(options.quiet || options.json ? {} : progressOf(bar)),
  });
  bar.done();
  if (options.json) {
    io.out(JSON.stringify({ conversations, movedAside: movedAside ?? null, problems }, null, 2));
    io.exitCode = problems.length > 0 ? 1 : 0;
    return;
  }
  if (movedAside !== undefined)
    io.out(`the store was damaged: moved aside to ${movedAside}, and built anew`);
  io.out(`re-indexed ${plural(conversations, 'conversation')} from the bundle`);
  io.exitCode = reportLeftOut(problems, io);
}

export function registerReindex(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('reindex')
      .description('rebuild the searchable graph (embedded, or Neo4j) from the PAM bundle alone'),
  )
    .option('-q, --quiet', 'no progress bar')
    .option(
      '--json',
      'print one JSON document: {conversations, movedAside (the damaged store set aside, or null), problems: [{level, code, file, message}]}',
    )
    .action((options: ReindexOptions) => runReindex(options, io));
}
