import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { validatePam, type Finding } from '../../api/trust.js';
import type { CliIo } from '../cli-io.js';
import { plural } from '../plural.js';
import { UsageError } from '../usage-error.js';

export interface ValidateCommandOptions {
  schemas?: string;
  json?: boolean;
}

function line(finding: Finding): string {
  const level = finding.level === 'warning' ? 'warning: ' : '';
  return `${level}${finding.file} ${finding.path}: [${finding.rule}] ${finding.message}`;
}

/** `chatgraph validate PATH`: exit 0 valid (warnings allowed), 1 invalid. */
export async function runValidate(
  path: string,
  options: ValidateCommandOptions,
  io: CliIo,
): Promise<void> {
  if (!existsSync(path)) throw new UsageError(`${path}: no such file or folder`);
  const report = await validatePam(path, options.schemas ? { schemas: options.schemas } : {});
  io.exitCode = report.valid ? 0 : 1;
  if (options.json) {
    io.out(JSON.stringify(report, null, 2));
    return;
  }
  if (!report.schemas)
    io.err(
      'note: not checked against the PAM JSON Schemas, none were found (install the Python package portable-ai-memory, or give --schemas DIR or CHATGRAPH_PAM_SCHEMAS)',
    );
  for (const finding of report.findings) io.out(line(finding));
  const errors = report.findings.filter((f) => f.level === 'error').length;
  const warnings = report.findings.length - errors;
  io.out(
    `${report.valid ? 'valid' : 'INVALID'}: ${plural(report.files, 'file')}, ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`,
  );
}

export function registerValidate(program: Command, io: CliIo): void {
  program
    .command('validate')
    .description(
      'check a PAM file or bundle folder: the official JSON Schemas, and the spec’s deep rules',
    )
    .argument('<path>', 'a memory-store.json, a conversation file, or a bundle folder')
    .option(
      '--schemas <dir>',
      'the folder of the official PAM JSON Schemas (default: $CHATGRAPH_PAM_SCHEMAS, or those of the Python package portable-ai-memory)',
    )
    .option(
      '--json',
      'print one JSON document: {path, valid, files, schemas, findings: [{level, file, path, rule, message}]}',
    )
    .action((path: string, options: ValidateCommandOptions) => runValidate(path, options, io));
}
