import { join } from 'node:path';
import type { Command } from 'commander';
import { makeTempFolder, removeTempFolder } from '../../api/folder.js';
import { DataFolder, exitCodeOf } from '../../index.js';
import { plural, type ExportFormat, type ExportReport } from '../../api/view.js';
import { checkChoice, type Choice } from '../choices.js';
import { SOURCE_CHOICE } from '../source-choice.js';
import type { CliIo } from '../cli-io.js';
import { formatProblems } from '../format-report.js';
import { checkInputs } from '../import-options.js';
import { formatBytes } from '../progress-bar.js';
import { withReader, withStoreOptions, type StoreOptions } from '../store-options.js';
import { UsageError } from '../usage-error.js';

export type ExportCommandOptions = StoreOptions & {
  format: string;
  out?: string;
  source?: string;
  since?: string;
  until?: string;
  query?: string;
  force?: boolean;
  redact?: boolean;
  json?: boolean;
  /** Exports read straight from these files, not from a data folder. */
  from?: string[];
};

/** The formats `export` writes (the compiler checks each is one the library writes). */
export const EXPORT_FORMAT_CHOICE: Choice<ExportFormat> = {
  noun: 'format',
  plural: 'formats',
  values: ['markdown', 'obsidian', 'html', 'jsonl'] satisfies readonly ExportFormat[],
};

/** A one-line count of conversations done, redrawn on a terminal's stderr. */
class ExportBar {
  private last = 0;
  private shown = false;
  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}
  update(done: number, total: number, messages: number): void {
    if (!this.stream.isTTY) return;
    const now = Date.now();
    if (now - this.last < 100 && done < total) return;
    this.last = now;
    const width = 28;
    const ratio = total > 0 ? done / total : 1;
    const filled = Math.round(ratio * width);
    const line = `exporting [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ${done.toLocaleString('en-US')}/${plural(total, 'conversation')} · ${plural(messages, 'message')}`;
    this.stream.write(`\r${line.slice(0, (this.stream.columns || 100) - 1)}\x1b[K`);
    this.shown = true;
  }
  done(): void {
    if (this.shown) this.stream.write('\r\x1b[K');
  }
}

/** What `export` says it did, a line or a few. */
export function formatExportReport(report: ExportReport): string[] {
  const lines: string[] = [];
  const changed = report.written + report.removed + report.moved;
  lines.push(
    `exported ${plural(report.conversations, 'conversation')} (${plural(report.messages, 'message')}) as ${report.format} to ${report.out}`,
  );
  lines.push(
    changed === 0
      ? `nothing changed: ${plural(report.unchanged, 'file')} already up to date, none written`
      : `${plural(report.written, 'file')} written (${formatBytes(report.bytesWritten)}${report.moved > 0 ? `, ${String(report.moved)} of them moved: renamed conversations` : ''}), ${String(report.unchanged)} unchanged, ${String(report.removed)} removed`,
  );
  for (const kept of report.kept)
    lines.push(
      kept.reason === 'edited'
        ? `kept ${kept.path}: edited since it was exported (--force overwrites it)`
        : kept.reason === 'link'
          ? `left ${kept.path} alone: it, or a folder on its way, is a link or not a file (an export never follows one out of --out)`
          : `kept ${kept.path}: a file this export did not write is in the way (--force overwrites it)`,
    );
  const masked = Object.values(report.redactions).reduce((a, b) => a + b, 0);
  if (masked > 0) lines.push(`${plural(masked, 'secret')} masked`);
  if (report.withheld > 0)
    lines.push(
      `${plural(report.withheld, 'attachment')} left out: not text, so --redact could not mask it (listed by name in the notes)`,
    );
  if (report.missing > 0)
    lines.push(
      `${plural(report.missing, 'conversation')} left out: ${report.format === 'jsonl' ? 'not in the data folder’s bundle' : 'no longer in the store'}`,
    );
  return lines;
}

/** `chatgraph export`: conversations as Markdown, an Obsidian vault, HTML or PAM JSON Lines. */
export async function runExport(
  ids: string[],
  options: ExportCommandOptions,
  io: CliIo,
): Promise<void> {
  const format = checkChoice('--format', options.format, EXPORT_FORMAT_CHOICE);
  if (options.out === undefined || options.out.trim() === '')
    throw new UsageError('export needs --out <dir>, the folder to write');
  const source =
    options.source !== undefined
      ? checkChoice('--source', options.source, SOURCE_CHOICE)
      : undefined;
  const from = options.from ?? [];
  if (from.length > 0 && (options.dataDir !== undefined || options.neo4j !== undefined))
    throw new UsageError(
      'export --from reads exports, not a data folder: leave out --data-dir and --neo4j',
    );
  const bar = new ExportBar();
  const exportFrom = (folder: DataFolder): Promise<ExportReport> =>
    folder.exportConversations({
      format,
      out: options.out ?? '',
      source,
      since: options.since,
      until: options.until,
      query: options.query,
      ids,
      force: options.force === true,
      redact: options.redact === true,
      onProgress: (p) => {
        bar.update(p.done, p.total, p.messages);
      },
    });
  const { report, readLoss } = await (
    from.length > 0
      ? fromExports(from, options, io, exportFrom)
      : withReader(options, (_store, folder) => exportFrom(folder)).then((report) => ({
          report,
          readLoss: 0 as const,
        }))
  ).finally(() => {
    bar.done();
  });
  if (options.json) io.out(JSON.stringify(report, null, 2));
  else for (const line of formatExportReport(report)) io.out(line);
  // Something asked for and not written (a file kept, a conversation unread) is a loss: exit 1.
  const lost = report.kept.length > 0 || report.missing > 0 ? 1 : 0;
  io.exitCode = Math.max(lost, readLoss);
}

/**
 * `export --from <exports…>`: the exports are read as `import` reads them, into a throwaway data
 * folder of this user's temporary directory (made private, removed when done, also on failure),
 * and written out from there, so the output is the one a data folder gives. What the read lost is
 * said as `import` says it, on stderr, and counts in the exit code.
 */
async function fromExports(
  inputs: string[],
  options: ExportCommandOptions,
  io: CliIo,
  exportFrom: (folder: DataFolder) => Promise<ExportReport>,
): Promise<{ report: ExportReport; readLoss: 0 | 1 | 2 }> {
  checkInputs(inputs);
  // Removed on Ctrl-C and SIGTERM too, and swept by the next run after a kill -9.
  const staging = await makeTempFolder('export');
  const folder = await DataFolder.open(join(staging, 'data'));
  try {
    const read = await folder.import(inputs, { redact: options.redact === true });
    const readLoss = exitCodeOf(read);
    const problems = formatProblems(read);
    if (problems.length > 0) io.err(problems.join('\n').trim());
    return { report: await exportFrom(folder), readLoss };
  } finally {
    await folder.close();
    await removeTempFolder(staging);
  }
}

export function registerExport(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('export')
      .description(
        'write conversations out: Markdown notes, an Obsidian vault, a static HTML archive or PAM JSON Lines; again, only what changed',
      )
      .argument(
        '[ids...]',
        "only these conversations: chatgraph's or the platform's id, whole or its first 8 or more characters",
      ),
  )
    .requiredOption('--format <format>', EXPORT_FORMAT_CHOICE.values.join(', '))
    .option('--out <dir>', 'the folder to write (made when missing)')
    .option('--source <source>', 'only this source (chatgpt, claude-ai, claude-code, ...)')
    .option('--since <date>', 'only conversations created at or after this date')
    .option('--until <date>', 'only conversations created before this date')
    .option('--query <words>', 'only conversations a word search finds')
    .option('--force', 'overwrite (or remove) files edited since the last export')
    .option('--redact', 'mask secrets (API keys, tokens, passwords) in what is written')
    .option(
      '--from <exports...>',
      'read these exports (zips, folders or files, as import takes) instead of a data folder; nothing is kept but the output',
    )
    .option(
      '--json',
      'print one JSON document: {format, out, written, unchanged, removed, moved, kept: [{path, reason}], conversations, messages, bytesWritten, redactions, missing, withheld}',
    )
    .action((ids: string[], options: ExportCommandOptions) => runExport(ids, options, io));
}
