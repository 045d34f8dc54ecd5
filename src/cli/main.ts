#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { NotAnExportError, VERSION, convertExports, writeSamples } from '../index.js';
import { formatReport } from './format-report.js';
import { ProgressBar } from './progress-bar.js';

/** A usage problem: one sentence, exit code 2. */
class UsageError extends Error {}

function importTime(): Date | undefined {
  // SOURCE_DATE_EPOCH makes the written import times reproducible (as in reproducible builds).
  const epoch = process.env.SOURCE_DATE_EPOCH;
  return epoch !== undefined && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : undefined;
}

function checkInputs(inputs: string[]): void {
  for (const input of inputs) {
    if (!existsSync(input))
      throw new UsageError(
        `"${input}" does not exist: give the path of an export (a .zip, its unpacked folder, or a conversations file)`,
      );
  }
}

const program = new Command()
  .name('chatgraph')
  .description('Turn AI chat exports into Portable AI Memory and a queryable context graph.')
  .version(VERSION)
  .showHelpAfterError()
  .exitOverride();

program
  .command('convert')
  .description('convert exports (zip, folder or file) into a Portable AI Memory bundle')
  .argument('<input...>', 'export zips, folders or files')
  .requiredOption(
    '-o, --out <dir>',
    'the bundle folder to write (created, or extended when it exists)',
  )
  .option('--json', 'print the import report as JSON')
  .option('-q, --quiet', 'no progress bar')
  .action(async (inputs: string[], options: { out: string; json?: boolean; quiet?: boolean }) => {
    checkInputs(inputs);
    const bar = new ProgressBar();
    const importedAt = importTime();
    const report = await convertExports(inputs, {
      out: options.out,
      ...(importedAt ? { importedAt } : {}),
      ...(options.quiet || options.json
        ? {}
        : {
            onProgress: (p) => {
              bar.update(p);
            },
          }),
    });
    bar.done();
    process.stdout.write(
      options.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`,
    );
  });

program
  .command('sample')
  .description('write small sample exports (ChatGPT and Claude.ai) to try chatgraph on')
  .option('-o, --out <dir>', 'where to write them', 'samples')
  .action(async (options: { out: string }) => {
    const files = await writeSamples(options.out);
    process.stdout.write(`${files.join('\n')}\n`);
  });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (error instanceof NotAnExportError || error instanceof UsageError) {
    process.stderr.write(`chatgraph: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`chatgraph: ${error instanceof Error ? error.message : String(error)}\n`);
    if (process.env.CHATGRAPH_DEBUG && error instanceof Error)
      process.stderr.write(`${error.stack ?? ''}\n`);
    process.exitCode = 1;
  }
}
