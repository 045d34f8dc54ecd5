#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import {
  MATCH_END,
  MATCH_START,
  NotAnExportError,
  QueryError,
  StoreConnectionError,
  VERSION,
  claudeCodeProjectDirs,
  convertExports,
  createRecaller,
  EmbeddingEndpointError,
  ModelFetchError,
  MemoryInputError,
  MemoryNotFoundError,
  MemoryStoreError,
  ModelNotInstalledError,
  VectorModelMismatchError,
  exitCodeOf,
  PROVIDERS,
  type ImportProgress,
  importExports,
  neo4jTarget,
  openStore,
  pushBundle,
  reindex,
  resolveDataDir,
  bundleDir,
  type Neo4jTarget,
  type Store,
  waitingMessage,
  type LockHolder,
  writeSamples,
  CLI_QUERY_LIMITS,
  SERVER_QUERY_LIMITS,
  queryLimits,
} from '../index.js';
import { runDelete } from './delete-command.js';
import { createServer } from '../mcp/create-server.js';
import { LineTransport } from '../mcp/line-transport.js';
import { serveMcpHttp } from '../mcp/serve-http.js';
import { startWebApp } from '../web/web-server.js';
import { formatAttachments } from './format-attachments.js';
import { formatReport } from './format-report.js';
import { formatSearch, searchJson, searchQueryOf, type SearchCliOptions } from './format-search.js';
import { formatTable } from './format-table.js';
import { registerMemoryCommands } from './memory-commands.js';
import { registerModelCommands } from './model-command.js';
import { parseParam } from './parse-param.js';
import { ProgressBar } from './progress-bar.js';
import { runEmbed, withModelOptions, type EmbedCliOptions } from './embed-command.js';
import { withQueryLimitOptions, type QueryLimitOptions } from './query-limit-options.js';

/** A usage problem: one sentence, exit code 2. */
class UsageError extends Error {}

function importTime(): Date | undefined {
  // SOURCE_DATE_EPOCH makes the written import times reproducible (as in reproducible builds).
  const epoch = process.env.SOURCE_DATE_EPOCH;
  return epoch !== undefined && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : undefined;
}

/** What `convert` and `import` share: redaction, the import time, and the progress bar. */
function runOptions(
  options: { json?: boolean; quiet?: boolean; redact?: boolean },
  bar: ProgressBar,
): { redact: boolean; importedAt?: Date; onProgress?: (progress: ImportProgress) => void } {
  const importedAt = importTime();
  return {
    redact: options.redact === true,
    ...(importedAt ? { importedAt } : {}),
    ...(options.quiet || options.json
      ? {}
      : {
          onProgress: (progress: ImportProgress) => {
            bar.update(progress);
          },
        }),
  };
}

/** Says, on stderr, that this writer waits for another (see withWriteLock). */
function onWait(holder: LockHolder): void {
  process.stderr.write(`chatgraph: ${waitingMessage(holder)}\n`);
}

function checkInputs(inputs: string[]): void {
  for (const input of inputs) {
    if (!existsSync(input))
      throw new UsageError(
        `"${input}" does not exist: give the path of an export (a .zip, its unpacked folder, or a conversations file)`,
      );
  }
}

const program = new Command()
  .name('chatgraph')
  .description('Turn AI chat exports into Portable AI Memory and a queryable context graph.')
  .version(VERSION)
  .showHelpAfterError()
  .exitOverride();

program
  .command('convert')
  .description('convert exports (zip, folder or file) into a Portable AI Memory bundle')
  .argument('<input...>', 'export zips, folders or files')
  .requiredOption(
    '-o, --out <dir>',
    'the bundle folder to write (created, or extended when it exists)',
  )
  .option('--json', 'print the import report as JSON')
  .option('-q, --quiet', 'no progress bar')
  .option('-v, --verbose', 'list routine notices (inferred times, fixed dates) one by one')
  .option(
    '--redact',
    'mask secrets (API keys, tokens, passwords in URLs, private keys) before writing',
  )
  .action(
    async (
      inputs: string[],
      options: {
        out: string;
        json?: boolean;
        quiet?: boolean;
        redact?: boolean;
        verbose?: boolean;
      },
    ) => {
      checkInputs(inputs);
      const bar = new ProgressBar();
      const report = await convertExports(inputs, {
        out: options.out,
        ...runOptions(options, bar),
      });
      bar.done();
      process.stdout.write(
        options.json
          ? `${JSON.stringify(report, null, 2)}\n`
          : `${formatReport(report, { verbose: options.verbose === true })}\n`,
      );
      process.exitCode = exitCodeOf(report);
    },
  );

type Format = 'table' | 'json';

function checkFormat(format: string): Format {
  if (format !== 'table' && format !== 'json')
    throw new UsageError(`--format takes table or json, not "${format}"`);
  return format;
}

/** The options every store command takes. */
interface StoreOptions {
  dataDir?: string;
  neo4j?: string;
  user?: string;
  database?: string;
}

/** Adds the store options: the data folder, or a Neo4j server. */
function withStoreOptions(command: Command): Command {
  return command
    .option(...dataDirOption)
    .option(
      '--neo4j <url>',
      'use this Neo4j 5 server instead of the embedded store: bolt://host:7687, neo4j+s://… for Aura (default: $NEO4J_URI)',
    )
    .option(
      '--user <name>',
      'the Neo4j user (default: $NEO4J_USERNAME or neo4j); the password is read from $NEO4J_PASSWORD only',
    )
    .option(
      '--database <name>',
      'the Neo4j database (default: $NEO4J_DATABASE or the server default)',
    );
}

function neo4jOf(options: StoreOptions): Neo4jTarget | undefined {
  if (options.neo4j === undefined && (options.user !== undefined || options.database !== undefined))
    throw new UsageError('--user and --database go with --neo4j <url> (or NEO4J_URI)');
  return neo4jTarget({ url: options.neo4j, user: options.user, database: options.database });
}

/** Opens the chosen store for reading: the data folder's (it must exist), or Neo4j. */
function openForReading(options: StoreOptions): Promise<Store> {
  return openStore(
    { dataDir: resolveDataDir(options.dataDir), neo4j: neo4jOf(options) },
    { readonly: true },
  );
}

async function withStore<T>(options: StoreOptions, use: (store: Store) => Promise<T>): Promise<T> {
  const store = await openForReading(options);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

function highlight(snippet: string): string {
  const tty = process.stdout.isTTY;
  return snippet
    .split(MATCH_START)
    .join(tty ? '\x1b[1m' : '«')
    .split(MATCH_END)
    .join(tty ? '\x1b[22m' : '»');
}

const dataDirOption = [
  '--data-dir <dir>',
  'the data folder (default: $CHATGRAPH_DATA_DIR or $XDG_DATA_HOME/chatgraph)',
] as const;

withModelOptions(
  withStoreOptions(
    program
      .command('import')
      .description(
        'import exports into the data folder: the PAM bundle, then the searchable graph (embedded, or Neo4j)',
      )
      .argument(
        '[input...]',
        'export zips, folders or files (default: your Claude Code sessions, ~/.claude/projects)',
      ),
  ),
)
  .option('--deep', 'also project tool calls into DecisionTrace and TraceStep nodes (remembered)')
  .option(
    '--redact',
    'mask secrets (API keys, tokens, passwords in URLs, private keys) before writing',
  )
  .option('--force', 'read every file again, even one imported before unchanged')
  .option('--restore', 'bring back conversations deleted with "chatgraph delete"')
  .option('--json', 'print the import report as JSON')
  .option('-q, --quiet', 'no progress bar')
  .option('--embed', 'then embed what is new, so search finds it by meaning (see chatgraph embed)')
  .option('-v, --verbose', 'list routine notices (inferred times, fixed dates) one by one')
  .action(
    async (
      given: string[],
      options: StoreOptions & {
        deep?: boolean;
        json?: boolean;
        quiet?: boolean;
        redact?: boolean;
        embed?: boolean;
        verbose?: boolean;
        force?: boolean;
        restore?: boolean;
      } & EmbedCliOptions,
    ) => {
      const neo4j = neo4jOf(options);
      const inputs = given.length > 0 ? given : claudeCodeProjectDirs();
      if (inputs.length === 0) {
        throw new UsageError(
          'give the path of an export (no Claude Code sessions were found in ~/.claude/projects either)',
        );
      }
      checkInputs(inputs);
      const bar = new ProgressBar();
      const report = await importExports(inputs, {
        dataDir: resolveDataDir(options.dataDir),
        neo4j,
        deep: options.deep === true,
        force: options.force === true,
        restore: options.restore === true,
        onWait,
        ...runOptions(options, bar),
      });
      bar.done();
      process.exitCode = exitCodeOf(report);
      if (options.json) {
        print(JSON.stringify(report, null, 2));
      } else {
        print(formatReport(report, { verbose: options.verbose === true }));
        const skipped = report.problems.find((p) => p.code === 'file-already-imported');
        const g = report.graph;
        print(
          `graph${neo4j ? ` (Neo4j at ${neo4j.url})` : ''}: ${g.written} conversation(s) indexed, ${g.unchanged} unchanged${g.reindexed ? '; re-indexed for deep mode' : ''}${skipped ? `; ${skipped.count} file(s) already imported, nothing to do (--force reads it again)` : ''}`,
        );
      }
      if (options.embed) {
        const dataDir = resolveDataDir(options.dataDir);
        const store = await openStore({ dataDir, neo4j });
        try {
          // With --json, stdout holds the report alone: the embed's lines go to stderr.
          const say = options.json ? (text: string) => process.stderr.write(`${text}\n`) : print;
          const embedded = await runEmbed(store, dataDir, options, say);
          if (embedded.interrupted) process.exitCode = 1;
        } finally {
          await store.close();
        }
      }
    },
  );

withQueryLimitOptions(
  withStoreOptions(
    program
      .command('query')
      .description('run a read-only Cypher query over the graph')
      .argument('<cypher>', 'the query'),
  ),
  CLI_QUERY_LIMITS,
)
  .option(
    '-p, --param <name=value>',
    'a query parameter (JSON when it parses, else text); repeatable',
    parseParam,
    {},
  )
  .option('--format <format>', 'table or json', 'table')
  .action(
    async (
      query: string,
      options: StoreOptions &
        QueryLimitOptions & { param: Record<string, unknown>; format: string },
    ) => {
      const format = checkFormat(options.format);
      const limits = queryLimits(options, CLI_QUERY_LIMITS);
      const rows = await withStore(options, (store) => store.cypher(query, options.param, limits));
      print(format === 'json' ? JSON.stringify(rows, null, 2) : formatTable(rows));
    },
  );

withStoreOptions(
  program
    .command('search')
    .description(
      'search every message (and pasted or attached text) by words, by meaning, or both (hybrid, the default once `chatgraph embed` has run)',
    )
    .argument(
      '<terms...>',
      'words (all must match); a OR b; NOT word or -word; "quoted phrases"; word* for a prefix; (groups); or a question in your own words',
    ),
)
  .option('--mode <mode>', 'keyword, semantic or hybrid (default: hybrid once vectors exist)')
  .option('--source <source>', 'only this source (chatgpt, claude-ai, ...)')
  .option('--since <date>', 'only messages at or after this date')
  .option('--until <date>', 'only messages before this date')
  .option('--role <role>', 'only messages of this role (user, assistant, tool, system)')
  .option('--limit <n>', 'how many hits', '20')
  .option('--offset <n>', 'hits to skip (the next page)', '0')
  .option('--format <format>', 'table or json', 'table')
  // So `search sourdough -levain` works unquoted: a -word is a search term, not an option.
  .allowUnknownOption()
  .action(async (terms: string[], options: StoreOptions & SearchCliOptions) => {
    const format = checkFormat(options.format);
    const unknown = terms.find((t) => t.startsWith('--'));
    if (unknown !== undefined)
      throw new UsageError(
        `unknown option ${unknown} (a word starting with -- can be quoted with others: "git push --force")`,
      );
    const query = searchQueryOf(terms.join(' '), options);
    const dataDir = resolveDataDir(options.dataDir);
    const result = await withStore(options, async (store) => {
      const recaller = createRecaller(store, dataDir);
      try {
        return await recaller.search(query);
      } finally {
        await recaller.close();
      }
    });
    const lines =
      format === 'json'
        ? [searchJson(result, query.offset ?? 0)]
        : formatSearch(result, query, highlight);
    for (const line of lines) print(line);
  });

withStoreOptions(
  program
    .command('thread')
    .description('print a conversation: the shown thread in order, or every branch')
    .argument('<conversation-id>', "chatgraph's or the platform's conversation id"),
)
  .option('--all-branches', 'every message of every branch, indented by depth')
  .option('--format <format>', 'table or json', 'table')
  .action(async (id: string, options: StoreOptions & { allBranches?: boolean; format: string }) => {
    const format = checkFormat(options.format);
    const { info, messages } = await withStore(options, async (store) => {
      const info = await store.conversation(id);
      return {
        info,
        messages: await store.thread(id, { allBranches: options.allBranches === true }),
      };
    });
    if (format === 'json') {
      print(JSON.stringify({ conversation: info, messages }, null, 2));
      return;
    }
    if (info)
      print(
        `# ${info.name} (${info.source}, ${info.createdAt.slice(0, 10)}, ${info.messageCount} messages)\n`,
      );
    // A hidden message with no text (ChatGPT's empty system prompt) is noise in a transcript.
    for (const message of messages.filter((m) => !(m.hidden && m.content.trim() === ''))) {
      const indent = options.allBranches ? '  '.repeat(message.depth) : '';
      const marks = [
        message.isThought ? 'thought' : '',
        message.hidden ? 'hidden' : '',
        options.allBranches && message.onShownThread ? 'shown' : '',
      ]
        .filter(Boolean)
        .join(', ');
      print(`${indent}[${message.role}${marks ? `, ${marks}` : ''}] ${message.createdAt}`);
      print(`${indent}${message.content.split('\n').join(`\n${indent}`)}\n`);
      if (message.attachments.length > 0)
        print(`${formatAttachments(message.attachments, indent)}\n`);
    }
  });

withStoreOptions(program.command('stats').description('counts per source, per month and per role'))
  .option('--format <format>', 'table or json', 'table')
  .action(async (options: StoreOptions & { format: string }) => {
    const format = checkFormat(options.format);
    const stats = await withStore(options, (store) => store.stats());
    if (format === 'json') {
      print(JSON.stringify(stats, null, 2));
      return;
    }
    print(`${stats.conversations} conversations, ${stats.messages} messages\n`);
    print(formatTable(stats.bySource));
    print('');
    print(formatTable(stats.byRole));
    print('');
    print(formatTable(stats.byMonth));
  });

withStoreOptions(
  program
    .command('reindex')
    .description('rebuild the searchable graph (embedded, or Neo4j) from the PAM bundle alone'),
)
  .option('-q, --quiet', 'no progress bar')
  .action(async (options: StoreOptions & { quiet?: boolean }) => {
    const bar = new ProgressBar();
    const { conversations, movedAside } = await reindex(resolveDataDir(options.dataDir), {
      neo4j: neo4jOf(options),
      onWait,
      ...(options.quiet
        ? {}
        : {
            onProgress: (p: ImportProgress) => {
              bar.update(p);
            },
          }),
    });
    bar.done();
    if (movedAside !== undefined)
      print(`the store was damaged: moved aside to ${movedAside}, and built anew`);
    print(`re-indexed ${conversations} conversation(s) from the bundle`);
  });

withStoreOptions(
  program
    .command('push')
    .description(
      "load the data folder's PAM bundle into Neo4j (again: only what changed; completes a push that was cut off)",
    ),
)
  .option('-q, --quiet', 'no progress bar')
  .action(async (options: StoreOptions & { quiet?: boolean }) => {
    const neo4j = neo4jOf(options);
    if (!neo4j)
      throw new UsageError('push needs a Neo4j server: give --neo4j <url> (or set NEO4J_URI)');
    const dataDir = resolveDataDir(options.dataDir);
    if (!existsSync(bundleDir(dataDir)))
      throw new UsageError(
        `there is no bundle in ${dataDir}: run "chatgraph import <export>" first (or give --data-dir)`,
      );
    const bar = new ProgressBar();
    const result = await pushBundle(dataDir, {
      neo4j,
      onWait,
      ...(options.quiet
        ? {}
        : {
            onProgress: (p: ImportProgress) => {
              bar.update(p);
            },
          }),
    });
    bar.done();
    print(
      `pushed ${result.conversations} conversation(s) to Neo4j at ${neo4j.url}: ${result.written} written, ${result.unchanged} already there`,
    );
  });

withStoreOptions(
  program
    .command('delete')
    .description(
      'delete a conversation everywhere: its bundle file, attachments and index entry, and the store; a later import leaves it out',
    )
    .argument('<conversation-id>', "chatgraph's or the platform's conversation id"),
)
  .option('--json', 'print what was deleted as JSON')
  .action(async (id: string, options: StoreOptions & { json?: boolean }) => {
    process.exitCode = await runDelete(id, { ...options, neo4j: neo4jOf(options) });
  });

withQueryLimitOptions(
  withStoreOptions(
    program
      .command('mcp')
      .description(
        'run a Model Context Protocol server over the store (stdio, or --http on 127.0.0.1)',
      ),
  ),
  SERVER_QUERY_LIMITS,
)
  .option(
    '--http <port>',
    'serve streamable HTTP on 127.0.0.1:<port> (0: any free port) instead of stdio',
  )
  .action(async (options: StoreOptions & QueryLimitOptions & { http?: string }) => {
    const limits = queryLimits(options, SERVER_QUERY_LIMITS);
    const store = await openForReading(options);
    const recaller = createRecaller(store, resolveDataDir(options.dataDir));
    const memory = { dataDir: resolveDataDir(options.dataDir), neo4j: neo4jOf(options) };
    if (options.http !== undefined) {
      const port = Number(options.http);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--http takes a port number, not "${options.http}"`);
      const endpoint = await serveMcpHttp(store, port, '127.0.0.1', {
        queryLimits: limits,
        recaller,
        memory,
      });
      process.stderr.write(`chatgraph MCP server at ${endpoint.url}\n`);
      return;
    }
    // stdout carries the protocol: nothing else may be printed there.
    await createServer(store, { queryLimits: limits, recaller, memory }).connect(
      new LineTransport(),
    );
    process.stderr.write('chatgraph MCP server on stdio\n');
  });

type ServeOptions = StoreOptions &
  QueryLimitOptions & { port: string; host?: string; maxUpload: string };

withQueryLimitOptions(
  withStoreOptions(
    program
      .command('serve')
      .description('run the web app over the store: browse, read, search, graph, Cypher, import'),
  ),
  SERVER_QUERY_LIMITS,
)
  .option('--port <port>', 'the port (0: any free port)', '8484')
  .option(
    '--host <address>',
    'listen on this address instead of 127.0.0.1; then every request needs the printed token',
  )
  .option('--max-upload <MB>', 'the largest export the browser may upload, in MB', '2048')
  .action(async (options: ServeOptions) => {
    const limits = queryLimits(options, SERVER_QUERY_LIMITS);
    const port = Number(options.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port takes a port number, not "${options.port}"`);
    const maxUpload = Number(options.maxUpload);
    if (!(maxUpload > 0))
      throw new UsageError(`--max-upload takes a size in MB, not "${options.maxUpload}"`);
    const dataDir = resolveDataDir(options.dataDir);
    const neo4j = neo4jOf(options);
    const store = await openStore({ dataDir, neo4j });
    let app;
    try {
      app = await startWebApp({
        store,
        dataDir,
        neo4j,
        port,
        ...(options.host !== undefined ? { host: options.host } : {}),
        maxUploadBytes: maxUpload * 1024 * 1024,
        queryLimits: limits,
      });
    } catch (error) {
      await store.close();
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE')
        throw new UsageError(`port ${port} is in use: give another with --port`);
      if (code === 'EADDRNOTAVAIL')
        throw new UsageError(`${options.host ?? ''} is not an address of this machine`);
      throw error;
    }
    print(`chatgraph web app at ${app.url}`);
    if (app.token !== undefined)
      print('(listening beyond this machine: every request needs the token in that address)');
    const stop = (): void => {
      void app
        .close()
        .then(() => store.close())
        .then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

withModelOptions(
  withStoreOptions(
    program
      .command('embed')
      .description(
        'embed what is not embedded yet (messages on every branch, attached text, titles), so search finds things by meaning',
      ),
  ),
)
  .option('--redact', 'mask secrets in texts before they are sent to an endpoint')
  .option('-q, --quiet', 'no plan and no progress bar')
  .action(async (options: StoreOptions & EmbedCliOptions) => {
    const dataDir = resolveDataDir(options.dataDir);
    const store = await openStore({ dataDir, neo4j: neo4jOf(options) });
    try {
      const report = await runEmbed(store, dataDir, options, print);
      if (report.interrupted) process.exitCode = 1;
    } finally {
      await store.close();
    }
  });

program
  .command('sources')
  .description('list the exports chatgraph reads, and how to get each')
  .action(() => {
    const how: Record<string, string> = {
      chatgpt:
        'ChatGPT: Settings → Data controls → Export data; give the .zip (or conversations.json, or the split conversations-000.json …)',
      claude:
        'Claude.ai: Settings → Privacy → Export data; give the .zip (with or without its extension), the 2026 set of zips, or conversations.json(l)',
      'claude-code':
        'Claude Code: nothing to export; chatgraph import with no path reads ~/.claude/projects (or CLAUDE_CONFIG_DIR)',
    };
    for (const provider of PROVIDERS)
      print(`${provider.source.padEnd(12)} ${how[provider.name] ?? provider.label}`);
  });

program
  .command('sample')
  .description('write small sample exports (ChatGPT and Claude.ai) to try chatgraph on')
  .option('-o, --out <dir>', 'where to write them', 'samples')
  .action(async (options: { out: string }) => {
    const files = await writeSamples(options.out);
    process.stdout.write(`${files.join('\n')}\n`);
  });

registerModelCommands(program);
registerMemoryCommands(program, {
  withStoreOptions,
  target: (options: StoreOptions) => ({
    dataDir: resolveDataDir(options.dataDir),
    neo4j: neo4jOf(options),
  }),
  withStore,
});

// `chatgraph search x | head` closes the pipe early: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (
    error instanceof NotAnExportError ||
    error instanceof UsageError ||
    error instanceof QueryError ||
    error instanceof StoreConnectionError ||
    error instanceof ModelNotInstalledError ||
    error instanceof EmbeddingEndpointError ||
    error instanceof VectorModelMismatchError ||
    error instanceof ModelFetchError ||
    error instanceof MemoryInputError ||
    error instanceof MemoryNotFoundError ||
    error instanceof MemoryStoreError
  ) {
    process.stderr.write(`chatgraph: ${error.message}\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`chatgraph: ${error instanceof Error ? error.message : String(error)}\n`);
    if (process.env.CHATGRAPH_DEBUG && error instanceof Error)
      process.stderr.write(`${error.stack ?? ''}\n`);
    process.exitCode = 1;
  }
}
