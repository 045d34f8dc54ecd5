import type { Command } from 'commander';
import { DataFolder, DataFolderMissingError, resolveDataDir } from '../../index.js';
import type { DoctorCheck } from '../../api/trust.js';
import type { CliIo } from '../cli-io.js';
import { folderOptions, withStoreOptions, type StoreOptions } from '../store-options.js';
import { UsageError } from '../usage-error.js';

export type DoctorCliOptions = StoreOptions & {
  model?: string;
  endpoint?: string;
  modelDir?: string;
  json?: boolean;
};

const MARK = { ok: 'ok  ', fix: 'FIX ', note: 'note' } as const;

/** The line of one check: `ok   store: …`, or what is wrong and the command to run. */
export function formatCheck(check: DoctorCheck): string {
  const line = `${MARK[check.status]}  ${check.name}: ${check.detail}`;
  return check.command !== undefined ? `${line}\n        run: ${check.command}` : line;
}

/**
 * `chatgraph doctor`: checks the data folder, store, model, Neo4j and write lock. Exit 0 when
 * all is well, 1 when something needs doing, 2 when there is no data folder to check.
 */
export async function runDoctor(
  options: DoctorCliOptions,
  typedFlags: string,
  io: CliIo,
): Promise<void> {
  const dataDir = resolveDataDir(options.dataDir);
  let checks: DoctorCheck[];
  try {
    const folder = await DataFolder.open(dataDir, folderOptions(options));
    checks = await folder.doctor({
      model: options.model,
      endpoint: options.endpoint,
      modelDir: options.modelDir,
      flags: typedFlags,
    });
  } catch (error) {
    if (error instanceof DataFolderMissingError) throw new UsageError(error.message);
    throw error;
  }
  const needs = checks.filter((check) => check.status === 'fix').length;
  if (options.json === true) io.out(JSON.stringify({ dataDir, ok: needs === 0, checks }));
  else for (const check of checks) io.out(formatCheck(check));
  io.exitCode = needs === 0 ? 0 : 1;
}

/** The store flags typed on the command line, so a suggested command reaches the same store. */
function typedStoreFlags(command: Command): string {
  const flags: [string, string][] = [
    ['dataDir', '--data-dir'],
    ['neo4j', '--neo4j'],
    ['user', '--user'],
    ['database', '--database'],
  ];
  return flags
    .filter(([key]) => command.getOptionValueSource(key) === 'cli')
    .map(([key, flag]) => ` ${flag} ${quoteArg(String(command.getOptionValue(key)))}`)
    .join('');
}

const quoteArg = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;

export function registerDoctor(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('doctor')
      .description(
        'check the data folder, store, model, embeddings, Neo4j and write lock; each problem with the command that fixes it',
      ),
  )
    .option('--model <model>', 'the model to check (default: the config file’s, else the index’s)')
    .option('--endpoint <url>', 'embedding goes through this endpoint (no local model to check)')
    .option('--model-dir <dir>', 'the model folder (default CHATGRAPH_MODEL_DIR or ~/.cache)')
    .option(
      '--json',
      'print {dataDir, ok, checks: [{name, status: ok|fix|note, detail, command?}]}',
    )
    .action((options: DoctorCliOptions, command: Command) =>
      runDoctor(options, typedStoreFlags(command), io),
    );
}
