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
  writeSamples,
} from '../index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createServer } from '../mcp/create-server.js';
import { serveMcpHttp } from '../mcp/serve-http.js';
import { startWebApp } from '../web/web-server.js';
import { formatReport } from './format-report.js';
import { formatTable } from './format-table.js';
import { parseParam } from './parse-param.js';
import { ProgressBar } from './progress-bar.js';

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
)
  .option('--deep', 'also project tool calls into DecisionTrace and TraceStep nodes (remembered)')
  .option(
    '--redact',
    'mask secrets (API keys, tokens, passwords in URLs, private keys) before writing',
  )
  .option('--json', 'print the import report as JSON')
  .option('-q, --quiet', 'no progress bar')
  .option('-v, --verbose', 'list routine notices (inferred times, fixed dates) one by one')
  .action(
    async (
      given: string[],
      options: StoreOptions & {
        deep?: boolean;
        json?: boolean;
        quiet?: boolean;
        redact?: boolean;
        verbose?: boolean;
      },
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
        ...runOptions(options, bar),
      });
      bar.done();
      process.exitCode = exitCodeOf(report);
      if (options.json) {
        print(JSON.stringify(report, null, 2));
        return;
      }
      print(formatReport(report, { verbose: options.verbose === true }));
      const skipped = report.problems.find((p) => p.code === 'file-already-imported');
      const g = report.graph;
      print(
        `graph${neo4j ? ` (Neo4j at ${neo4j.url})` : ''}: ${g.written} conversation(s) indexed, ${g.unchanged} unchanged${g.reindexed ? '; re-indexed for deep mode' : ''}${skipped ? `; ${skipped.count} file(s) already imported, nothing to do` : ''}`,
      );
    },
  );

withStoreOptions(
  program
    .command('query')
    .description('run a read-only Cypher query over the graph')
    .argument('<cypher>', 'the query'),
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
      options: StoreOptions & { param: Record<string, unknown>; format: string },
    ) => {
      const format = checkFormat(options.format);
      const rows = await withStore(options, (store) => store.cypher(query, options.param));
      print(format === 'json' ? JSON.stringify(rows, null, 2) : formatTable(rows));
    },
  );

withStoreOptions(
  program
    .command('search')
    .description('ranked full-text search over message text')
    .argument('<terms...>', 'words; "quoted phrases"; word* for a prefix'),
)
  .option('--source <source>', 'only this source (chatgpt, claude-ai, ...)')
  .option('--since <date>', 'only messages at or after this date')
  .option('--until <date>', 'only messages before this date')
  .option('--role <role>', 'only messages of this role (user, assistant, tool, system)')
  .option('--limit <n>', 'how many hits', '20')
  .option('--format <format>', 'table or json', 'table')
  .action(
    async (
      terms: string[],
      options: StoreOptions & {
        source?: string;
        since?: string;
        until?: string;
        role?: string;
        limit: string;
        format: string;
      },
    ) => {
      const format = checkFormat(options.format);
      const limit = Number(options.limit);
      const result = await withStore(options, (store) =>
        store.search({
          text: terms.join(' '),
          limit,
          ...(options.source ? { source: options.source } : {}),
          ...(options.since ? { since: options.since } : {}),
          ...(options.until ? { until: options.until } : {}),
          ...(options.role ? { role: options.role } : {}),
        }),
      );
      if (format === 'json') {
        const hits = result.hits.map((hit) => ({
          ...hit,
          snippet: hit.snippet.split(MATCH_START).join('«').split(MATCH_END).join('»'),
        }));
        print(JSON.stringify({ ...result, hits }, null, 2));
        return;
      }
      if (result.hits.length === 0) print('no matches');
      for (const hit of result.hits) {
        print(
          `${hit.createdAt.slice(0, 10)}  ${hit.source}  ${hit.title}  (${hit.role}, conversation ${hit.platformConversationId}, message ${hit.messageId})`,
        );
        print(`    ${highlight(hit.snippet.replace(/\s+/g, ' '))}`);
      }
      if (result.ranked < result.matches) {
        print(
          `(${result.matchesCapped ? 'more than ' : ''}${result.matches.toLocaleString('en-US')} messages match; the best of the ${result.ranked.toLocaleString('en-US')} most recently indexed are shown: add words to narrow)`,
        );
      }
    },
  );

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
    const { conversations } = await reindex(resolveDataDir(options.dataDir), {
      neo4j: neo4jOf(options),
      ...(options.quiet
        ? {}
        : {
            onProgress: (p: ImportProgress) => {
              bar.update(p);
            },
          }),
    });
    bar.done();
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
    .command('mcp')
    .description(
      'run a Model Context Protocol server over the store (stdio, or --http on 127.0.0.1)',
    ),
)
  .option(
    '--http <port>',
    'serve streamable HTTP on 127.0.0.1:<port> (0: any free port) instead of stdio',
  )
  .action(async (options: StoreOptions & { http?: string }) => {
    const store = await openForReading(options);
    if (options.http !== undefined) {
      const port = Number(options.http);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new UsageError(`--http takes a port number, not "${options.http}"`);
      const endpoint = await serveMcpHttp(store, port);
      process.stderr.write(`chatgraph MCP server at ${endpoint.url}\n`);
      return;
    }
    // stdout carries the protocol: nothing else may be printed there.
    await createServer(store).connect(new StdioServerTransport());
    process.stderr.write('chatgraph MCP server on stdio\n');
  });

withStoreOptions(
  program
    .command('serve')
    .description('run the web app over the store: browse, read, search, graph, Cypher, import'),
)
  .option('--port <port>', 'the port (0: any free port)', '8484')
  .option(
    '--host <address>',
    'listen on this address instead of 127.0.0.1; then every request needs the printed token',
  )
  .option('--max-upload <MB>', 'the largest export the browser may upload, in MB', '2048')
  .action(async (options: StoreOptions & { port: string; host?: string; maxUpload: string }) => {
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
    error instanceof StoreConnectionError
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
