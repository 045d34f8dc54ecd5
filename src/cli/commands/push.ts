import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { shownUrl } from '../../api/query.js';
import type { CliIo } from '../cli-io.js';
import { onWaitOf, progressOf } from '../import-options.js';
import { reportLeftOut } from '../left-out.js';
import { ProgressBar } from '../progress-bar.js';
import { neo4jOf, openForWriting, withStoreOptions, type StoreOptions } from '../store-options.js';
import { UsageError } from '../usage-error.js';
import { plural } from '../plural.js';

export type PushOptions = StoreOptions & { quiet?: boolean; json?: boolean };

/** `chatgraph push --neo4j <url>`: the data folder's bundle loaded into Neo4j. */
export async function runPush(options: PushOptions, io: CliIo): Promise<void> {
  const neo4j = neo4jOf(options);
  if (!neo4j)
    throw new UsageError('push needs a Neo4j server: give --neo4j <url> (or set NEO4J_URI)');
  const folder = await openForWriting(options, { onWait: onWaitOf(io) });
  if (!existsSync(folder.bundle))
    throw new UsageError(
      `there is no bundle in ${folder.dir}: run "chatgraph import <export>" first (or give --data-dir)`,
    );
  const bar = new ProgressBar();
  const result = await folder.push({
    ...(options.quiet || options.json ? {} : progressOf(bar)),
  });
  bar.done();
  if (options.json) {
    io.out(JSON.stringify({ neo4j: shownUrl(neo4j.url), ...result }, null, 2));
    io.exitCode = result.problems.length > 0 ? 1 : 0;
    return;
  }
  io.out(
    `pushed ${plural(result.conversations, 'conversation')} to Neo4j at ${shownUrl(neo4j.url)}: ${result.written} written, ${result.unchanged} already there`,
  );
  io.exitCode = reportLeftOut(result.problems, io);
}

export function registerPush(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('push')
      .description(
        "load the data folder's PAM bundle into Neo4j (again: only what changed; completes a push that was cut off)",
      ),
  )
    .option('-q, --quiet', 'no progress bar')
    .option(
      '--json',
      'print one JSON document: {neo4j, conversations, written, unchanged, problems: [{level, code, file, message}]}',
    )
    .action((options: PushOptions) => runPush(options, io));
}
