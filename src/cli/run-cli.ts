import { Command, CommanderError } from 'commander';
import { EmbeddingEndpointError, ModelFetchError, ModelNotInstalledError } from '../api/models.js';
import { MemoryInputError, MemoryNotFoundError, MemoryStoreError } from '../api/memory.js';
import { NotAnExportError } from '../api/sources.js';
import {
  QueryError,
  QueryLimitError,
  StoreConnectionError,
  VectorModelMismatchError,
} from '../api/query.js';
import { SigningKeyError, FolderEncryptionError } from '../api/trust.js';
import { VERSION } from '../index.js';
import type { CliIo } from './cli-io.js';
import { registerCompletion } from './commands/completion.js';
import { registerConfig } from './commands/config.js';
import { applyConfig } from './config/apply-config.js';
import { registerConvert } from './commands/convert.js';
import { registerDelete } from './commands/delete.js';
import { registerDoctor } from './commands/doctor.js';
import { registerEmbed } from './commands/embed.js';
import { registerEncrypt } from './commands/encrypt.js';
import { registerExport } from './commands/export.js';
import { registerExportPam } from './commands/export-pam.js';
import { registerImport } from './commands/import.js';
import { registerList } from './commands/list.js';
import { registerMcp } from './commands/mcp.js';
import { registerForget, registerMemories, registerRemember } from './commands/memories.js';
import { registerPush } from './commands/push.js';
import { registerQuery } from './commands/query.js';
import { registerReindex } from './commands/reindex.js';
import { registerSample } from './commands/sample.js';
import { registerSearch } from './commands/search.js';
import { registerServe } from './commands/serve.js';
import { registerKey, registerSign, registerVerify } from './commands/sign.js';
import { registerSources } from './commands/sources.js';
import { registerStats } from './commands/stats.js';
import { registerThread } from './commands/thread.js';
import { registerValidate } from './commands/validate.js';
import { registerWatch } from './commands/watch.js';
import { registerModelCommands } from './model-command.js';
import { parseProblem } from './usage-line.js';
import { UsageError } from './usage-error.js';

/** Every command, in the order `chatgraph --help` lists them. */
const COMMANDS = [
  registerConvert,
  registerImport,
  registerList,
  registerQuery,
  registerSearch,
  registerThread,
  registerExport,
  registerExportPam,
  registerStats,
  registerReindex,
  registerPush,
  registerDelete,
  registerMemories,
  registerRemember,
  registerForget,
  registerSign,
  registerVerify,
  registerKey,
  registerEncrypt,
  registerValidate,
  registerMcp,
  registerServe,
  registerWatch,
  registerEmbed,
  registerSources,
  registerSample,
  registerConfig,
  registerDoctor,
  registerCompletion,
];

/** The program with every command, writing to `io`. */
export function buildProgram(io: CliIo): Command {
  const program = new Command()
    .name('chatgraph')
    .description('Turn AI chat exports into Portable AI Memory and a queryable context graph.')
    .version(VERSION)
    .configureOutput({
      // Commander's own error lines are replaced by ours (see parseProblem).
      outputError: () => undefined,
      writeOut: (text) => {
        io.out(text.replace(/\n$/, ''));
      },
      writeErr: (text) => {
        io.err(text.replace(/\n$/, ''));
      },
    });
  for (const register of COMMANDS) register(program, io);
  registerModelCommands(program, io);
  // Flags and environment first, then the config file, then the defaults.
  program.hook('preAction', (_program, command) => {
    applyConfig(command);
  });
  overrideExits(program);
  return program;
}

/** A command line commander refused, with the command it was refused by. */
class ParseFailure extends Error {
  constructor(
    readonly command: Command,
    readonly error: CommanderError,
  ) {
    super(error.message);
  }
}

function overrideExits(command: Command): void {
  command.exitOverride((error) => {
    throw new ParseFailure(command, error);
  });
  for (const sub of command.commands) overrideExits(sub);
}

/** Errors the user can act on: their message alone, exit code 2. */
const SAID_AS_IS = [
  NotAnExportError,
  UsageError,
  QueryError,
  StoreConnectionError,
  ModelNotInstalledError,
  EmbeddingEndpointError,
  VectorModelMismatchError,
  ModelFetchError,
  MemoryInputError,
  MemoryNotFoundError,
  MemoryStoreError,
  SigningKeyError,
  FolderEncryptionError,
];

/**
 * Runs one command line (`argv` as `process.argv` has it: node, script, then the arguments) and
 * gives its exit code. Servers (`mcp`, `serve`) go on running after it returns.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    await buildProgram(io).parseAsync(argv);
    return io.exitCode;
  } catch (caught) {
    if (caught instanceof ParseFailure && caught.error.exitCode === 0) return 0;
    // `chatgraph` alone: the help is already on stderr.
    if (caught instanceof ParseFailure && caught.error.code === 'commander.help') return 2;
    const error =
      caught instanceof ParseFailure ? parseProblem(caught.command, caught.error) : caught;
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    if (error instanceof UsageError) {
      io.err(`chatgraph: ${error.message}`);
      if (error.usage !== undefined) io.err(error.usage);
      return 2;
    }
    if (error instanceof QueryLimitError && error.limit) {
      const flag = error.limit.kind === 'timeout' ? '--query-timeout' : '--query-memory';
      io.err(`chatgraph: ${error.message} (the limit is set with ${flag})`);
      return 2;
    }
    if (SAID_AS_IS.some((kind) => error instanceof kind)) {
      io.err(`chatgraph: ${(error as Error).message}`);
      return 2;
    }
    io.err(`chatgraph: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.CHATGRAPH_DEBUG && error instanceof Error) io.err(error.stack ?? '');
    return 1;
  }
}
