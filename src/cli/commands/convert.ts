import type { Command } from 'commander';
import { convertExports, exitCodeOf } from '../../index.js';
import { withRefusalReport } from '../refusal-report.js';
import type { CliIo } from '../cli-io.js';
import { formatReport } from '../format-report.js';
import { checkInputs, runOptions } from '../import-options.js';
import { ProgressBar } from '../progress-bar.js';

export interface ConvertOptions {
  out: string;
  json?: boolean;
  quiet?: boolean;
  redact?: boolean;
  verbose?: boolean;
}

/** `chatgraph convert <input...> -o <dir>`: exports to a PAM bundle, no store. */
export async function runConvert(
  inputs: string[],
  options: ConvertOptions,
  io: CliIo,
): Promise<void> {
  checkInputs(inputs);
  const bar = new ProgressBar();
  const report = await withRefusalReport(options.json, io, () =>
    convertExports(inputs, {
      out: options.out,
      exportOnly: true,
      ...runOptions(options, bar),
    }),
  );
  bar.done();
  io.out(
    options.json
      ? JSON.stringify(report, null, 2)
      : formatReport(report, { verbose: options.verbose === true }),
  );
  io.exitCode = exitCodeOf(report);
}

export function registerConvert(program: Command, io: CliIo): void {
  program
    .command('convert')
    .description('convert exports (zip, folder or file) into a Portable AI Memory bundle')
    .argument('<input...>', 'export zips, folders or files')
    .requiredOption(
      '-o, --out <dir>',
      'the bundle folder to write (created, or extended when it exists)',
    )
    .option(
      '--json',
      'print one JSON document, the conversion report: {providers, totals, written, problems: [{level, code, count, examples}], ...}',
    )
    .option('-q, --quiet', 'no progress bar')
    .option('-v, --verbose', 'list routine notices (inferred times, fixed dates) one by one')
    .option(
      '--redact',
      'mask secrets (API keys, tokens, passwords in URLs, private keys) before writing',
    )
    .action((inputs: string[], options: ConvertOptions) => runConvert(inputs, options, io));
}
