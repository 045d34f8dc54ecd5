import type { Command } from 'commander';
import { CLI_QUERY_LIMITS, queryLimits } from '../../api/query.js';
import type { CliIo } from '../cli-io.js';
import { formatTable } from '../format-table.js';
import { parseParam } from '../parse-param.js';
import { withQueryLimitOptions, type QueryLimitOptions } from '../query-limit-options.js';
import {
  checkFormat,
  withFormatOptions,
  withReader,
  withStoreOptions,
  type StoreOptions,
} from '../store-options.js';

export type QueryOptions = StoreOptions &
  QueryLimitOptions & { param: Record<string, unknown>; format: string; json?: boolean };

/** `chatgraph query <cypher>`: read-only Cypher, as a table or JSON. */
export async function runQuery(query: string, options: QueryOptions, io: CliIo): Promise<void> {
  const format = checkFormat(options.format, options.json);
  const limits = queryLimits(options, CLI_QUERY_LIMITS);
  const rows = await withReader(options, (store) => store.cypher(query, options.param, limits));
  io.out(format === 'json' ? JSON.stringify(rows, null, 2) : formatTable(rows));
}

export function registerQuery(program: Command, io: CliIo): void {
  withFormatOptions(
    withQueryLimitOptions(
      withStoreOptions(
        program
          .command('query')
          .description('run a read-only Cypher query over the graph')
          .argument('<cypher>', 'the query'),
      ),
      CLI_QUERY_LIMITS,
      'cypher',
    ),
    'the rows, [{column: value, ...}]',
  )
    .option(
      '-p, --param <name=value>',
      'a query parameter (JSON when it parses, else text); repeatable',
      parseParam,
      {},
    )
    .action((query: string, options: QueryOptions) => runQuery(query, options, io));
}
