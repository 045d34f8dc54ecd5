import type { Command } from 'commander';
import { SERVER_QUERY_LIMITS, queryLimits } from '../../api/query.js';
import type { DataFolder, Follower } from '../../index.js';
import { startWebApp } from '../../web/web-server.js';
import type { CliIo } from '../cli-io.js';
import { openBrowser } from '../open-browser.js';
import { withQueryLimitOptions, type QueryLimitOptions } from '../query-limit-options.js';
import {
  checkPort,
  openForWriting,
  withStoreOptions,
  type StoreOptions,
} from '../store-options.js';
import { UsageError } from '../usage-error.js';
import { REDACT_HELP, followForServer } from './watch.js';
import { pricesFor } from './usage.js';

export type ServeOptions = StoreOptions &
  QueryLimitOptions & {
    port: string;
    host?: string;
    maxUpload: string;
    watch?: boolean;
    redact?: boolean;
    open?: boolean;
  };

type WebApp = Awaited<ReturnType<typeof startWebApp>>;

/** `chatgraph serve`: the web app over the store, until Ctrl-C or SIGTERM. */
export async function runServe(options: ServeOptions, io: CliIo): Promise<void> {
  const limits = queryLimits(options, SERVER_QUERY_LIMITS);
  const port = checkPort(options.port, '--port');
  const maxUpload = Number(options.maxUpload);
  if (!(maxUpload > 0))
    throw new UsageError(`--max-upload takes a size in MB, not "${options.maxUpload}"`);
  const live = await followForServer(options, io);
  const folder = await openForWriting(options);
  // The store opened first: a Neo4j server that cannot be reached is said before listening.
  await folder.reader();
  let app: WebApp;
  try {
    app = await startWebApp({
      folder,
      port,
      ...(options.host !== undefined ? { host: options.host } : {}),
      maxUploadBytes: maxUpload * 1024 * 1024,
      queryLimits: limits,
      prices: pricesFor(),
      changes: live?.changes,
    });
  } catch (error) {
    await live?.follower.stop();
    await folder.close();
    throw listenError(error, port, options.host);
  }
  io.out(`chatgraph web app at ${app.url}`);
  if (app.token !== undefined)
    io.out('(listening beyond this machine: every request needs the token in that address)');
  if (options.open === true) {
    const failed = await openBrowser(app.url);
    if (failed !== undefined) io.err(`could not open a browser (${failed}): open ${app.url}`);
  }
  stopOnSignal(app, folder, live?.follower);
}

/** A port taken or an address not this machine's, said as a usage problem. */
function listenError(error: unknown, port: number, host: string | undefined): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE')
    return new UsageError(`port ${port} is in use: give another with --port`);
  if (code === 'EADDRNOTAVAIL')
    return new UsageError(`${host ?? ''} is not an address of this machine`);
  return error;
}

function stopOnSignal(app: WebApp, folder: DataFolder, follower: Follower | undefined): void {
  const stop = (): void => {
    void app
      .close()
      .then(() => follower?.stop())
      .then(() => folder.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

export function registerServe(program: Command, io: CliIo): void {
  withQueryLimitOptions(
    withStoreOptions(
      program
        .command('serve')
        .description('run the web app over the store: browse, read, search, graph, Cypher, import'),
    ),
    SERVER_QUERY_LIMITS,
    'cypher-and-search',
  )
    .option('--port <port>', 'the port (0: any free port)', '8484')
    .option(
      '--host <address>',
      'listen on this address instead of 127.0.0.1; then every request needs the printed token',
    )
    .option('--max-upload <MB>', 'the largest export the browser may upload, in MB', '2048')
    .option(
      '--watch',
      'also follow your Claude Code sessions (as chatgraph watch): the page updates',
    )
    .option('--redact', `with --watch: ${REDACT_HELP} (uploads are imported as they are)`)
    .option('--open', 'open the web app in the browser once it listens')
    .action((options: ServeOptions) => runServe(options, io));
}
