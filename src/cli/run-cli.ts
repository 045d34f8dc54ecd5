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
import { SchemaFetchError, SigningKeyError, FolderEncryptionError } from '../api/trust.js';
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

/**
 * Every command, in the order `chatgraph --help` lists them: by what a person wants to do, each
 * under its group's heading with a line short enough for an 80-column terminal.
 */
const GROUPS: { heading: string; commands: Record<string, string> }[] = [
  {
    heading: 'Get data in:',
    commands: {
      import: 'read exports into the data folder (its PAM bundle, then its graph)',
      convert: 'turn exports into a PAM bundle, with no data folder',
      watch: 'keep importing new Claude Code sessions and dropped exports',
      sources: 'the exports chatgraph reads, and how to get each',
      sample: 'write small sample exports to try chatgraph on',
    },
  },
  {
    heading: 'Find:',
    commands: {
      search: 'search every message by words, by meaning, or both',
      list: 'list the conversations, with filters, a page at a time',
      query: 'run a read-only Cypher query over the graph',
      stats: 'counts per source, per month and per role',
    },
  },
  {
    heading: 'Read:',
    commands: {
      thread: 'print a conversation: its shown thread, or every branch',
      serve: 'the web app: browse, read, search, graph, Cypher, import',
    },
  },
  {
    heading: 'Agents:',
    commands: {
      mcp: 'a Model Context Protocol server over the store',
      memories: 'list the memories, newest first or by words',
      remember: 'remember something: a PAM memory and a graph node',
      forget: 'forget a memory (retracted, gone from searches)',
    },
  },
  {
    heading: 'Out:',
    commands: {
      export: 'Markdown, an Obsidian vault, an HTML archive or PAM JSON Lines',
      'export-pam': 'the data folder as a PAM bundle for another tool',
      push: 'load the bundle into Neo4j (only what changed)',
    },
  },
  {
    heading: 'Trust:',
    commands: {
      sign: 'sign the bundle (PAM section 18, and a manifest of every file)',
      verify: 'check a bundle’s signatures',
      key: 'the Ed25519 key chatgraph sign uses',
      validate: 'check PAM files: the official JSON Schemas and the deep rules',
      encrypt: 'encrypt the data folder at rest',
      decrypt: 'decrypt an encrypted data folder back to plain files',
    },
  },
  {
    heading: 'Admin:',
    commands: {
      embed: 'embed what is not embedded yet, so search finds it by meaning',
      model: 'the local embedding models that semantic search uses',
      reindex: 'rebuild the graph from the PAM bundle alone',
      delete: 'delete a conversation everywhere',
      config: 'the settings in force, and where each came from',
      doctor: 'check the data folder, store, model and Neo4j',
      completion: 'print the shell completion script: bash, zsh or fish',
      help: 'display help for a command',
    },
  },
];

/** Every command's registration, in the order of {@link GROUPS}. */
const COMMANDS = [
  registerImport,
  registerConvert,
  registerWatch,
  registerSources,
  registerSample,
  registerSearch,
  registerList,
  registerQuery,
  registerStats,
  registerThread,
  registerServe,
  registerMcp,
  registerMemories,
  registerRemember,
  registerForget,
  registerExport,
  registerExportPam,
  registerPush,
  registerSign,
  registerVerify,
  registerKey,
  registerValidate,
  registerEncrypt,
  registerEmbed,
  registerModelCommands,
  registerReindex,
  registerDelete,
  registerConfig,
  registerDoctor,
  registerCompletion,
];

/** Each command under its group's heading, its short line in the list of commands. */
function groupCommands(program: Command): void {
  for (const { heading, commands } of GROUPS)
    for (const [name, summary] of Object.entries(commands)) {
      const command = program.commands.find((c) => c.name() === name);
      command?.helpGroup(heading).summary(summary);
    }
  // The help command commander adds itself, last, under the last heading.
  program.commandsGroup(GROUPS.at(-1)?.heading ?? 'Commands:');
  program.helpCommand('help [command]', GROUPS.at(-1)?.commands.help ?? '');
}

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
  groupCommands(program);
  program.configureHelp({
    // The list of commands names them; each command's own help gives its arguments.
    subcommandTerm: (command) => [command.name(), ...command.aliases()].join(', '),
  });
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
  SchemaFetchError,
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
