import type { Command } from 'commander';
import { plural } from '../../api/view.js';
import type { CliIo } from '../cli-io.js';
import { onWaitOf } from '../import-options.js';
import { openForWriting, type StoreOptions } from '../store-options.js';
import { UsageError } from '../usage-error.js';
import { dataDirOption } from '../store-options.js';

export type ExportPamCommandOptions = Pick<StoreOptions, 'dataDir'> & {
  out?: string;
  since?: string;
  base?: string;
  json?: boolean;
};

/** `chatgraph export-pam`: the data folder as a PAM bundle, whole or what changed since a date. */
export async function runExportPam(options: ExportPamCommandOptions, io: CliIo): Promise<void> {
  if (options.out === undefined || options.out.trim() === '')
    throw new UsageError('export-pam needs --out <dir>, an empty folder to write the bundle in');
  if (options.base !== undefined && options.since === undefined)
    throw new UsageError('--base names the full export an incremental one extends: give --since');
  const folder = await openForWriting(options, { onWait: onWaitOf(io) });
  try {
    const report = await folder.exportPam({
      out: options.out,
      since: options.since,
      base: options.base,
    });
    if ('refused' in report) throw new UsageError(report.refused);
    if (options.json) {
      io.out(JSON.stringify(report, null, 2));
      return;
    }
    io.out(
      `wrote ${report.exportType === 'full' ? 'a full' : 'an incremental'} PAM export ${report.exportId} to ${report.out}: ${plural(report.memories, 'memory', 'memories')} (${String(report.retracted)} retracted), ${plural(report.conversations, 'conversation')}, ${plural(report.attachments, 'attachment')}`,
    );
    if (report.baseExportId !== null) io.out(`it extends the full export ${report.baseExportId}`);
    if (report.notExportable > 0)
      io.out(
        `${plural(report.notExportable, 'memory', 'memories')} marked access.exportable false left out (PAM 21.1)`,
      );
  } finally {
    await folder.close();
  }
}

export function registerExportPam(program: Command, io: CliIo): void {
  program
    .command('export-pam')
    .description(
      'write the data folder as a PAM bundle for another tool: whole, or with --since an incremental export (PAM 16) of what changed since a date',
    )
    .option(...dataDirOption)
    .option('--out <dir>', 'the folder to write (made when missing; must be empty)')
    .option(
      '--since <date>',
      'only memories and conversations changed at or after this date (2024-05-01, 7d, yesterday…): an incremental export whose base_export_id names the last full one written',
    )
    .option(
      '--base <export-id>',
      'with --since: the full export this one extends (default: the last full export-pam)',
    )
    .option(
      '--json',
      'print one JSON document: {out, exportType, exportId, baseExportId, memories, retracted, conversations, attachments, notExportable}',
    )
    .action((options: ExportPamCommandOptions) => runExportPam(options, io));
}
