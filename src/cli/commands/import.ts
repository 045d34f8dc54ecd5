import type { Command } from 'commander';
import { claudeCodeProjectDirs, findAgentStores } from '../../api/sources.js';
import { RestoreError } from '../../api/folder.js';
import { exitCodeOf, type DataFolder, type ImportResult, type Neo4jTarget } from '../../index.js';
import type { CliIo } from '../cli-io.js';
import { withRefusalReport } from '../refusal-report.js';
import { runEmbed, withModelOptions, type EmbedCliOptions } from '../embed-command.js';
import { formatReport, nothingNew } from '../format-report.js';
import { checkInputs, onWaitOf, runOptions } from '../import-options.js';
import { ProgressBar } from '../progress-bar.js';
import { neo4jOf, openForWriting, withStoreOptions, type StoreOptions } from '../store-options.js';
import { UsageError } from '../usage-error.js';
import { plural } from '../plural.js';
import { isSignatureNote, sayNotes } from '../signature-notes.js';
import { readSecret, type SecretOptions } from '../folder-secret.js';
import { foundLine } from './sources.js';

export type ImportOptions = StoreOptions &
  SecretOptions & {
    deep?: boolean;
    json?: boolean;
    quiet?: boolean;
    redact?: boolean;
    embed?: boolean;
    verbose?: boolean;
    force?: boolean;
    restore?: boolean;
    encrypt?: boolean;
    agents?: boolean;
  } & EmbedCliOptions;

/**
 * `import --encrypt`: the folder is encrypted before anything is written to it, so a new one
 * never holds a plain byte (one encrypted already is left as it is, and asks for nothing more).
 */
async function encryptFirst(folder: DataFolder, options: ImportOptions, io: CliIo): Promise<void> {
  if (options.encrypt !== true) return;
  if (folder.neo4j)
    throw new UsageError(
      '--encrypt keeps the data folder encrypted; a Neo4j server’s data is the server’s to encrypt',
    );
  // The same handle imports next: it holds the key it made, and asks for nothing more.
  const report = await folder.encrypt(() => readSecret(options, true), { ifPlain: true });
  if (report.already !== true && !options.json)
    io.err(
      `encrypted ${folder.dir} (docs/encryption.md): what is written to it from now on is too`,
    );
}

/** `chatgraph import [input...]`: the bundle, then the store; then, with --embed, vectors. */
export async function runImport(given: string[], options: ImportOptions, io: CliIo): Promise<void> {
  const neo4j = neo4jOf(options);
  const folder = await openForWriting(options, { onWait: onWaitOf(io) });
  await encryptFirst(folder, options, io);
  // `--restore` with no path: the folder's import says what brings the deleted ones back.
  const restoring = given.length === 0 && options.restore === true;
  const inputs = restoring
    ? []
    : options.agents === true
      ? [...given, ...(await agentInputs(options, io))]
      : given.length > 0
        ? given
        : claudeCodeProjectDirs();
  if (inputs.length === 0 && !restoring) {
    throw new UsageError(
      options.agents === true
        ? 'no coding agent’s sessions were found in their usual places (chatgraph sources lists them); give the path of an export or a session folder'
        : 'give the path of an export (no Claude Code sessions were found in ~/.claude/projects either)',
    );
  }
  checkInputs(inputs);
  const bar = new ProgressBar();
  const report = await withRefusalReport(options.json, io, () =>
    folder.import(inputs, {
      deep: options.deep === true,
      force: options.force === true,
      restore: options.restore === true,
      ...runOptions(options, bar),
    }),
  ).catch((error: unknown) => {
    bar.done();
    if (!(error instanceof RestoreError)) throw error;
    if (!error.nothingDeleted) throw new UsageError(error.message);
    io.out(
      options.json ? JSON.stringify({ restored: 0, note: error.message }, null, 2) : error.message,
    );
    return undefined;
  });
  if (report === undefined) return;
  bar.done();
  io.exitCode = exitCodeOf(report);
  if (options.json) io.out(JSON.stringify(report, null, 2));
  else
    printReport(
      { ...report, problems: report.problems.filter((g) => !isSignatureNote(g)) },
      options,
      neo4j,
      io,
    );
  const notes = report.problems.filter(isSignatureNote).flatMap((group) => group.examples);
  sayNotes(notes, folder.bundle, io);
  if (options.embed) await embedAfterImport(folder, options, io);
}

/**
 * `import --agents`: every coding agent's store found on this machine, listed (on stderr when
 * stdout holds the JSON report) before it is imported. A store that cannot be read is listed,
 * and given to the import too, whose report says what it found there and why it is not read.
 */
async function agentInputs(options: ImportOptions, io: CliIo): Promise<string[]> {
  const found = await findAgentStores();
  const say = options.json === true ? io.err : io.out;
  if (options.quiet !== true || options.json === true)
    for (const store of found) say(`found ${foundLine(store)}`);
  return found.map((store) => store.path);
}

function printReport(
  report: ImportResult,
  options: ImportOptions,
  neo4j: Neo4jTarget | undefined,
  io: CliIo,
): void {
  io.out(formatReport(report, { verbose: options.verbose === true }));
  // The same files again: the report's one line said it; a line of zeros about the graph would not.
  if (nothingNew(report) && report.graph.written === 0 && !report.graph.reindexed) return;
  const skipped = report.problems.find((p) => p.code === 'file-already-imported');
  const g = report.graph;
  io.out(
    `graph${neo4j ? ` (Neo4j at ${neo4j.url})` : ''}: ${plural(g.written, 'conversation')} indexed, ${g.unchanged} unchanged${g.reindexed ? '; re-indexed for deep mode' : ''}${skipped ? `; ${plural(skipped.count, 'file')} already imported, nothing to do (--force reads it again)` : ''}`,
  );
}

async function embedAfterImport(
  folder: DataFolder,
  options: ImportOptions,
  io: CliIo,
): Promise<void> {
  try {
    // With --json, stdout holds the report alone: the embed's lines go to stderr.
    const say = options.json ? io.err : io.out;
    const embedded = await runEmbed(
      folder,
      options,
      say,
      options.json ? undefined : io.terminal?.columns,
    );
    if (embedded.interrupted) io.exitCode = 1;
  } finally {
    await folder.close();
  }
}

export function registerImport(program: Command, io: CliIo): void {
  withModelOptions(
    withStoreOptions(
      program
        .command('import')
        .description(
          'import exports into the data folder: the PAM bundle, then the searchable graph (embedded, or Neo4j)',
        )
        .argument(
          '[input...]',
          'export zips, folders or files, or a PAM bundle or memory store another tool wrote (an incremental one is merged onto its base export) (default: your Claude Code sessions, ~/.claude/projects)',
        ),
    ),
  )
    .option('--deep', 'also project tool calls into DecisionTrace and TraceStep nodes (remembered)')
    .option(
      '--redact',
      'mask secrets (API keys, tokens, passwords in URLs, private keys) before writing',
    )
    .option('--force', 'read every file again, even one imported before unchanged')
    .option(
      '--encrypt',
      'encrypt the data folder at rest first, if it is not (see "chatgraph encrypt"): a new one never holds a plain byte',
    )
    .option('--restore', 'bring back conversations deleted with "chatgraph delete"')
    .option(
      '--agents',
      'also import every coding agent’s sessions found on this machine (Claude Code, Codex, Gemini CLI, Cline… in their usual places and environment overrides; chatgraph sources --installed lists them)',
    )
    .option(
      '--json',
      'print one JSON document, the import report: {providers, totals, written, problems: [{level, code, count, examples}], graph, ...}',
    )
    .option('-q, --quiet', 'no progress bar')
    .option(
      '--embed',
      'then embed what is new, so search finds it by meaning (see chatgraph embed)',
    )
    .option('-v, --verbose', 'list routine notices (inferred times, fixed dates) one by one')
    .action((given: string[], options: ImportOptions) => runImport(given, options, io));
}
