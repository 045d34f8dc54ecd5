import type { Command } from 'commander';
import { SERVER_QUERY_LIMITS, createRecaller, queryLimits, resolveDataDir } from '../../index.js';
import { createServer } from '../../mcp/create-server.js';
import { LineTransport } from '../../mcp/line-transport.js';
import { serveMcpHttp } from '../../mcp/serve-http.js';
import type { CliIo } from '../cli-io.js';
import { withQueryLimitOptions, type QueryLimitOptions } from '../query-limit-options.js';
import { UsageError } from '../usage-error.js';
import { REDACT_HELP, followForServer } from './watch.js';
import {
  checkPort,
  neo4jOf,
  openForReading,
  withStoreOptions,
  type StoreOptions,
} from '../store-options.js';

export type McpOptions = StoreOptions &
  QueryLimitOptions & { http?: string; maxResultKb: string; watch?: boolean; redact?: boolean };

/** `chatgraph mcp`: the MCP server over the store, on stdio or streamable HTTP. */
export async function runMcp(options: McpOptions, io: CliIo): Promise<void> {
  const limits = queryLimits(options, SERVER_QUERY_LIMITS);
  const port = options.http === undefined ? undefined : checkPort(options.http, '--http');
  const maxResultKb = Number(options.maxResultKb);
  if (!Number.isFinite(maxResultKb) || maxResultKb < 4)
    throw new UsageError(`--max-result-kb takes 4 (KB) or more, not "${options.maxResultKb}"`);
  await followForServer(options, io);
  const store = await openForReading(options);
  const recaller = createRecaller(store, resolveDataDir(options.dataDir));
  const memory = { dataDir: resolveDataDir(options.dataDir), neo4j: neo4jOf(options) };
  const mcpOptions = { queryLimits: limits, recaller, maxResultKb, memory };
  if (port !== undefined) {
    const endpoint = await serveMcpHttp(store, port, '127.0.0.1', mcpOptions);
    io.err(`chatgraph MCP server at ${endpoint.url}`);
    return;
  }
  // stdout carries the protocol: nothing else may be printed there.
  await createServer(store, mcpOptions).connect(new LineTransport());
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
      '--max-result-kb <KB>',
      'the most text one tool result holds; a longer one is cut and says how to read on',
      '80',
    )
    .option(
      '--watch',
      'also follow your Claude Code sessions (as chatgraph watch): reads see new messages',
    )
    .option('--redact', `with --watch: ${REDACT_HELP}`)
    .action((options: McpOptions) => runMcp(options, io));
}
