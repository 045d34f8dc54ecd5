import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { runEmbed, withModelOptions, type EmbedCliOptions } from '../embed-command.js';
import { openForWriting, withStoreOptions, type StoreOptions } from '../store-options.js';

export type EmbedOptions = StoreOptions & EmbedCliOptions & { json?: boolean };

/** `chatgraph embed`: vectors for what is not embedded yet. */
export async function runEmbedCommand(options: EmbedOptions, io: CliIo): Promise<void> {
  const folder = await openForWriting(options);
  try {
    // With --json, stdout holds the report alone: no plan, no progress bar, no summary line.
    const report = options.json
      ? await runEmbed(folder, { ...options, quiet: true }, () => undefined)
      : await runEmbed(folder, options, io.out, io.terminal?.columns);
    if (options.json) io.out(JSON.stringify(report, null, 2));
    if (report.interrupted) io.exitCode = 1;
  } finally {
    await folder.close();
  }
}

export function registerEmbed(program: Command, io: CliIo): void {
  withModelOptions(
    withStoreOptions(
      program
        .command('embed')
        .description(
          'embed what is not embedded yet (messages on every branch, attached text, titles), so search finds things by meaning',
        ),
    ),
  )
    .option('--redact', 'mask secrets in texts before they are sent to an endpoint')
    .option('-q, --quiet', 'no plan and no progress bar')
    .option(
      '--json',
      'print one JSON document at the end: {model, conversations, conversationsDone, embedded, cached, interrupted, ...}',
    )
    .action((options: EmbedOptions) => runEmbedCommand(options, io));
}
