import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { validatePam, type Finding } from '../../api/trust.js';
import type { CliIo } from '../cli-io.js';
import { plural } from '../plural.js';
import { UsageError } from '../usage-error.js';

export interface ValidateCommandOptions {
  schemas?: string;
  fetchSchemas?: boolean;
  json?: boolean;
}

function line(finding: Finding): string {
  const level = finding.level === 'warning' ? 'warning: ' : '';
  return `${level}${finding.file} ${finding.path}: [${finding.rule}] ${finding.message}`;
}

/**
 * `chatgraph validate PATH`: exit 0 valid (warnings allowed), 1 invalid, 2 not known to be
 * valid: the official JSON Schemas were not found, so only the deep rules ran (and passed).
 * With `--fetch-schemas`, the schemas are fetched first from the official PyPI package,
 * checksum-pinned, and kept for the next runs.
 */
export async function runValidate(
  path: string,
  options: ValidateCommandOptions,
  io: CliIo,
): Promise<void> {
  if (!existsSync(path)) throw new UsageError(`${path}: no such file or folder`);
  if (options.fetchSchemas === true && options.schemas !== undefined)
    throw new UsageError('give --schemas <dir> or --fetch-schemas, not both');
  const report = await validatePam(path, {
    ...(options.schemas !== undefined ? { schemas: options.schemas } : {}),
    fetchSchemas: options.fetchSchemas === true,
  });
  if (report.fetched === true && !options.json)
    io.err(
      `fetched the official PAM JSON Schemas into ${report.schemas ?? ''} (portable-ai-memory 1.0.0 from PyPI; the wheel and each schema match their pinned sha256)`,
    );
  const errors = report.findings.filter((f) => f.level === 'error').length;
  const warnings = report.findings.length - errors;
  io.exitCode = report.valid ? 0 : errors > 0 ? 1 : 2;
  if (options.json) {
    io.out(JSON.stringify(report, null, 2));
    return;
  }
  for (const finding of report.findings) io.out(line(finding));
  const counts = `${plural(report.files, 'file')}, ${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
  if (report.checked === 'deep rules only') {
    io.out(`${errors > 0 ? 'INVALID, ' : ''}deep rules only: schemas not checked: ${counts}`);
    io.err(
      'the official PAM JSON Schemas were not found: "chatgraph validate --fetch-schemas" fetches them from PyPI (portable-ai-memory 1.0.0, checksum-pinned), or install that Python package, or give --schemas DIR (or CHATGRAPH_PAM_SCHEMAS)',
    );
    return;
  }
  io.out(`${report.valid ? 'valid' : 'INVALID'}: ${counts}`);
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
      'the folder of the official PAM JSON Schemas (default: $CHATGRAPH_PAM_SCHEMAS, those of the Python package portable-ai-memory, or those --fetch-schemas fetched)',
    )
    .option(
      '--fetch-schemas',
      'when no PAM JSON Schemas are found, fetch the official ones first (from the PyPI package portable-ai-memory 1.0.0, checksum-pinned; kept in ~/.cache/chatgraph)',
    )
    .option(
      '--json',
      'print one JSON document: {path, valid, checked, files, schemas, findings: [{level, file, path, rule, message}]}',
    )
    .action((path: string, options: ValidateCommandOptions) => runValidate(path, options, io));
}
