import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { formatTable } from '../format-table.js';
import { checkFormat, withStore, withStoreOptions, type StoreOptions } from '../store-options.js';

export type StatsOptions = StoreOptions & { format: string };

/** `chatgraph stats`: counts per source, per month and per role. */
export async function runStats(options: StatsOptions, io: CliIo): Promise<void> {
  const format = checkFormat(options.format);
  const stats = await withStore(options, (store) => store.stats());
  if (format === 'json') {
    io.out(JSON.stringify(stats, null, 2));
    return;
  }
  io.out(`${stats.conversations} conversations, ${stats.messages} messages\n`);
  io.out(formatTable(stats.bySource));
  io.out('');
  io.out(formatTable(stats.byRole));
  io.out('');
  io.out(formatTable(stats.byMonth));
}

export function registerStats(program: Command, io: CliIo): void {
  withStoreOptions(
    program.command('stats').description('counts per source, per month and per role'),
  )
    .option('--format <format>', 'table or json', 'table')
    .action((options: StatsOptions) => runStats(options, io));
}
