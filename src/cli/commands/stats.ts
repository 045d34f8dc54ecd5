import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { formatTable } from '../format-table.js';
import {
  checkFormat,
  withFormatOptions,
  withReader,
  withStoreOptions,
  type StoreOptions,
} from '../store-options.js';
import { plural } from '../plural.js';

export type StatsOptions = StoreOptions & { format: string; json?: boolean };

/** `chatgraph stats`: counts per source, per month and per role. */
export async function runStats(options: StatsOptions, io: CliIo): Promise<void> {
  const format = checkFormat(options.format, options.json);
  const stats = await withReader(options, (store) => store.stats());
  if (format === 'json') {
    io.out(JSON.stringify(stats, null, 2));
    return;
  }
  io.out(`${plural(stats.conversations, 'conversation')}, ${plural(stats.messages, 'message')}\n`);
  io.out(formatTable(stats.bySource));
  io.out('');
  io.out(formatTable(stats.byRole));
  io.out('');
  io.out(formatTable(stats.byMonth));
}

export function registerStats(program: Command, io: CliIo): void {
  withFormatOptions(
    withStoreOptions(
      program.command('stats').description('counts per source, per month and per role'),
    ),
    '{conversations, messages, bySource: [{source, conversations, messages}], byMonth: [{month, source, messages}], byRole: [{role, messages}], byModel: [{model, messages}]}',
  ).action((options: StatsOptions) => runStats(options, io));
}
