import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { Command, CommanderError } from 'commander';
import type { CliIo } from './cli-io.js';
import { queryLimitLine } from './limit-line.js';
import { packageVersion } from './package-version.js';
import { parseProblem } from './usage-line.js';
import { UsageError } from './usage-error.js';

type Register = (program: Command, io: CliIo) => void;

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
      watch: 'keep importing what coding agents write, and dropped exports',
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
      usage: 'tokens and cost of the coding agents’ model calls',
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
      sync: 'one history across your machines through a folder you sync',
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

/**
 * Every command, in the order of {@link GROUPS}: the names each module registers,
 * and the module, loaded only when its command runs (or when every command is needed: help, a
 * mistyped command, completion). Loading all of them took most of a cold start: about 400 of
 * our files and their dependencies for `--version` (issue 46).
 */
const COMMANDS: { names: readonly string[]; load: () => Promise<readonly Register[]> }[] = [
  { names: ['import'], load: async () => [(await import('./commands/import.js')).registerImport] },
  {
    names: ['convert'],
    load: async () => [(await import('./commands/convert.js')).registerConvert],
  },
  { names: ['watch'], load: async () => [(await import('./commands/watch.js')).registerWatch] },
  {
    names: ['sources'],
    load: async () => [(await import('./commands/sources.js')).registerSources],
  },
  { names: ['sample'], load: async () => [(await import('./commands/sample.js')).registerSample] },
  { names: ['search'], load: async () => [(await import('./commands/search.js')).registerSearch] },
  { names: ['list', 'ls'], load: async () => [(await import('./commands/list.js')).registerList] },
  { names: ['query'], load: async () => [(await import('./commands/query.js')).registerQuery] },
  { names: ['stats'], load: async () => [(await import('./commands/stats.js')).registerStats] },
  { names: ['usage'], load: async () => [(await import('./commands/usage.js')).registerUsage] },
  { names: ['thread'], load: async () => [(await import('./commands/thread.js')).registerThread] },
  { names: ['serve'], load: async () => [(await import('./commands/serve.js')).registerServe] },
  { names: ['mcp'], load: async () => [(await import('./commands/mcp.js')).registerMcp] },
  {
    names: ['memories', 'remember', 'forget'],
    load: async () => {
      const m = await import('./commands/memories.js');
      return [m.registerMemories, m.registerRemember, m.registerForget];
    },
  },
  { names: ['export'], load: async () => [(await import('./commands/export.js')).registerExport] },
  {
    names: ['export-pam'],
    load: async () => [(await import('./commands/export-pam.js')).registerExportPam],
  },
  { names: ['push'], load: async () => [(await import('./commands/push.js')).registerPush] },
  { names: ['sync'], load: async () => [(await import('./commands/sync.js')).registerSync] },
  {
    names: ['sign', 'verify', 'key'],
    load: async () => {
      const m = await import('./commands/sign.js');
      return [m.registerSign, m.registerVerify, m.registerKey];
    },
  },
  {
    names: ['validate'],
    load: async () => [(await import('./commands/validate.js')).registerValidate],
  },
  {
    names: ['encrypt', 'decrypt'],
    load: async () => [(await import('./commands/encrypt.js')).registerEncrypt],
  },
  { names: ['embed'], load: async () => [(await import('./commands/embed.js')).registerEmbed] },
  {
    names: ['model'],
    load: async () => [(await import('./model-command.js')).registerModelCommands],
  },
  {
    names: ['reindex'],
    load: async () => [(await import('./commands/reindex.js')).registerReindex],
  },
  { names: ['delete'], load: async () => [(await import('./commands/delete.js')).registerDelete] },
  { names: ['config'], load: async () => [(await import('./commands/config.js')).registerConfig] },
  { names: ['doctor'], load: async () => [(await import('./commands/doctor.js')).registerDoctor] },
  // Completion describes every command: never registered alone (see commandsFor).
  {
    names: ['completion', '__complete'],
    load: async () => [(await import('./commands/completion.js')).registerCompletion],
  },
];

/** The modules a command line needs: its command's alone, or all of them. */
function commandsFor(argv: readonly string[] | undefined): typeof COMMANDS {
  const name = argv?.[2];
  // `chatgraph --version` alone needs none.
  if ((name === '--version' || name === '-V') && argv?.length === 3) return [];
  const one = COMMANDS.find((entry) => name !== undefined && entry.names.includes(name));
  return one && !one.names.includes('completion') ? [one] : COMMANDS;
}

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

/**
 * The program with every command (or, given the command line, with the one it runs), writing
 * to `io`.
 */
export async function buildProgram(io: CliIo, argv?: readonly string[]): Promise<Command> {
  const program = new Command()
    .name('chatgraph')
    .description('Turn AI chat exports into Portable AI Memory and a queryable context graph.')
    .version(packageVersion())
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
  const modules = await Promise.all(commandsFor(argv).map((entry) => entry.load()));
  for (const register of modules.flat()) register(program, io);
  groupCommands(program);
  program.configureHelp({
    // The list of commands names them; each command's own help gives its arguments.
    subcommandTerm: (command) => [command.name(), ...command.aliases()].join(', '),
  });
  // Flags and environment first, then the config file, then the defaults.
  program.hook('preAction', async (_program, command) => {
    const { applyConfig } = await import('./config/apply-config.js');
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

/** Errors the user can act on: their message alone, exit code 2 (loaded when one is thrown). */
async function saidAsIs(): Promise<(abstract new (...args: never[]) => Error)[]> {
  const [models, memory, sources, query, trust] = await Promise.all([
    import('../api/models.js'),
    import('../api/memory.js'),
    import('../api/sources.js'),
    import('../api/query.js'),
    import('../api/trust.js'),
  ]);
  return [
    sources.NotAnExportError,
    UsageError,
    query.QueryError,
    query.StoreConnectionError,
    models.ModelNotInstalledError,
    models.EmbeddingEndpointError,
    query.VectorModelMismatchError,
    models.ModelFetchError,
    memory.MemoryInputError,
    memory.MemoryNotFoundError,
    memory.MemoryStoreError,
    trust.SchemaFetchError,
    trust.SigningKeyError,
    trust.FolderEncryptionError,
  ];
}

/**
 * An unknown option, refused by a program that held its command alone: refused again by one
 * that holds every command, so the error can say which other commands take it.
 */
async function withEveryCommand(caught: unknown, argv: string[], io: CliIo): Promise<unknown> {
  if (!(caught instanceof ParseFailure) || caught.error.code !== 'commander.unknownOption')
    return caught;
  try {
    await (await buildProgram(io)).parseAsync(argv);
  } catch (again) {
    if (again instanceof ParseFailure) return again;
  }
  return caught;
}

/**
 * Runs one command line (`argv` as `process.argv` has it: node, script, then the arguments) and
 * gives its exit code. Servers (`mcp`, `serve`) go on running after it returns.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const rebuilds = sayingRebuilds(io);
  try {
    await (await buildProgram(io, argv)).parseAsync(argv);
    return io.exitCode;
  } catch (first) {
    const caught = await withEveryCommand(first, argv, io);
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
    const { QueryLimitError } = await import('../api/query.js');
    if (error instanceof QueryLimitError && error.limit) {
      io.err(queryLimitLine(error.message, error.limit.kind));
      return 2;
    }
    if ((await saidAsIs()).some((kind) => error instanceof kind)) {
      io.err(`chatgraph: ${(error as Error).message}`);
      return 2;
    }
    io.err(`chatgraph: ${error instanceof Error ? error.message : String(error)}`);
    if (process.env.CHATGRAPH_DEBUG && error instanceof Error) io.err(error.stack ?? '');
    return 1;
  } finally {
    rebuilds();
  }
}

/**
 * The store's announcement that it builds its full-text tables again (a folder made by an
 * older version, on its first open for writing: the name is sqlite-migrations.ts's
 * STORE_REBUILD_CHANNEL), said on stderr when the wait is long enough to wonder about. Returns
 * what stops listening.
 */
export const STORE_REBUILD = 'chatgraph:store-rebuild';
const REBUILD_SAID_FROM = 20_000;
function sayingRebuilds(io: CliIo): () => void {
  const listener = (message: unknown): void => {
    const messages =
      typeof message === 'object' && message !== null && 'messages' in message
        ? Number(message.messages)
        : 0;
    if (messages < REBUILD_SAID_FROM) return;
    // About 32 CPU-seconds a million messages with 2- and 3-letter prefixes, 44 with 4-letter
    // ones too (docs/performance.md, issue 46 fourth and ninth passes).
    const minutes = Math.round(messages / 1_000_000);
    const wait =
      minutes < 1
        ? 'less than a minute'
        : minutes === 1
          ? 'about a minute'
          : `about ${minutes} minutes`;
    io.err(
      `chatgraph: rebuilding the search index of ${messages.toLocaleString('en')} messages for this version (once; ${wait}, more on a busy machine)…`,
    );
  };
  subscribe(STORE_REBUILD, listener);
  return () => unsubscribe(STORE_REBUILD, listener);
}
