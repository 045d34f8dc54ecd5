import type { Command } from 'commander';
import { SERVER_QUERY_LIMITS, queryLimits } from '../../api/query.js';
import { DEFAULT_ANSWER_BYTES, MIN_ANSWER_BYTES } from '../../mcp/result-budget.js';
import type { CliIo } from '../cli-io.js';
import { withQueryLimitOptions, type QueryLimitOptions } from '../query-limit-options.js';
import { UsageError } from '../usage-error.js';
import { REDACT_HELP, followForServer } from './watch.js';
import {
  checkPort,
  openForReading,
  withStoreOptions,
  type StoreOptions,
} from '../store-options.js';
import { pricesFor } from './usage.js';

export type McpOptions = StoreOptions &
  QueryLimitOptions & {
    http?: string;
    answerBudget?: string;
    maxResultKb?: string;
    watch?: boolean;
    redact?: boolean;
  };

// --answer-budget in bytes, or the older --max-result-kb in KB; 4 KB at least either way.
function answerBudgetOf(options: McpOptions): number {
  if (options.answerBudget !== undefined && options.maxResultKb !== undefined)
    throw new UsageError('give --answer-budget or --max-result-kb, not both');
  if (options.maxResultKb !== undefined) {
    const kb = Number(options.maxResultKb);
    if (!Number.isFinite(kb) || kb < MIN_ANSWER_BYTES / 1024)
      throw new UsageError(`--max-result-kb takes 4 (KB) or more, not "${options.maxResultKb}"`);
    return Math.floor(kb * 1024);
  }
  if (options.answerBudget === undefined) return DEFAULT_ANSWER_BYTES;
  const bytes = Number(options.answerBudget);
  if (!Number.isInteger(bytes) || bytes < MIN_ANSWER_BYTES)
    throw new UsageError(
      `--answer-budget takes a number of bytes, ${String(MIN_ANSWER_BYTES)} or more, not "${options.answerBudget}"`,
    );
  return bytes;
}

/** `chatgraph mcp`: the MCP server over the store, on stdio or streamable HTTP. */
export async function runMcp(options: McpOptions, io: CliIo): Promise<void> {
  const limits = queryLimits(options, SERVER_QUERY_LIMITS);
  const port = options.http === undefined ? undefined : checkPort(options.http, '--http');
  const answerBudget = answerBudgetOf(options);
  // The MCP SDK (and zod-to-json-schema, hono) load when the server starts, not with every
  // command: about 100 ms of every `chatgraph` call's start.
  const [{ createServer }, { holdingsOf }, { LineTransport }, { serveMcpHttp }] = await Promise.all(
    [
      import('../../mcp/create-server.js'),
      import('../../mcp/instructions.js'),
      import('../../mcp/line-transport.js'),
      import('../../mcp/serve-http.js'),
    ],
  );
  await followForServer(options, io);
  const folder = await openForReading(options);
  const recaller = await folder.recaller();
  // Counted once at start (cheap counts): what the initialize result tells agents.
  const holdings = await holdingsOf(await folder.reader());
  const prices = pricesFor();
  const mcpOptions = { queryLimits: limits, recaller, answerBudget, holdings, prices };
  if (port !== undefined) {
    const endpoint = await serveMcpHttp(folder, port, '127.0.0.1', mcpOptions);
    io.err(`chatgraph MCP server at ${endpoint.url}`);
    return;
  }
  // stdout carries the protocol: nothing else may be printed there.
  await (await createServer(folder, mcpOptions)).connect(new LineTransport());
  io.err('chatgraph MCP server on stdio');
}

export function registerMcp(program: Command, io: CliIo): void {
  withQueryLimitOptions(
    withStoreOptions(
      program
        .command('mcp')
        .description(
          'run a Model Context Protocol server over the store (stdio, or --http on 127.0.0.1)',
        ),
    ),
    SERVER_QUERY_LIMITS,
    'cypher-and-search',
  )
    .option(
      '--http <port>',
      'serve streamable HTTP on 127.0.0.1:<port> (0: any free port) instead of stdio',
    )
    .option(
      '--answer-budget <bytes>',
      `the most one answer holds, text and structured content together (default ${String(DEFAULT_ANSWER_BYTES)}); a longer one is cut and says how to read on`,
    )
    .option('--max-result-kb <KB>', 'the same budget in KB (older name)')
    .option(
      '--watch',
      'also follow your Claude Code sessions (as chatgraph watch): reads see new messages',
    )
    .option('--redact', `with --watch: ${REDACT_HELP}`)
    .action((options: McpOptions) => runMcp(options, io));
}
