import type { Command } from 'commander';
import { AmbiguousIdError, ConversationNotFoundError } from '../../api/query.js';
import type { CliIo } from '../cli-io.js';
import { onWaitOf } from '../import-options.js';
import { neo4jOf, openForWriting, withStoreOptions, type StoreOptions } from '../store-options.js';
import { plural } from '../plural.js';

export type DeleteOptions = StoreOptions & { json?: boolean };

/**
 * `chatgraph delete <id>`: deletes one conversation everywhere and says what went; returns the
 * exit code (0 deleted, 1 deleted but something stayed behind, 2 no such conversation, or
 * the start of several ids).
 */
export async function runDelete(id: string, options: DeleteOptions, io: CliIo): Promise<number> {
  const neo4j = neo4jOf(options);
  const folder = await openForWriting(options, { onWait: onWaitOf(io) });
  try {
    const result = await folder.delete(id);
    if (options.json) {
      io.out(JSON.stringify(result, null, 2));
    } else {
      const where = [
        result.bundle ? 'the bundle' : '',
        result.store ? (neo4j ? 'Neo4j' : 'the store') : '',
      ]
        .filter(Boolean)
        .join(' and ');
      io.out(
        `deleted conversation ${result.id}${result.platformId ? ` (${result.source ?? ''} ${result.platformId})` : ''} from ${where}${result.attachments > 0 ? `, with ${plural(result.attachments, 'attachment file')}` : ''}; importing its export again leaves it out (import --restore brings it back)`,
      );
      for (const problem of result.problems)
        io.err(`chatgraph: ${problem.file ?? ''}: ${problem.message}`);
    }
    return result.problems.length > 0 ? 1 : 0;
  } catch (error) {
    if (!(error instanceof ConversationNotFoundError || error instanceof AmbiguousIdError))
      throw error;
    io.err(`chatgraph: ${error.message}`);
    return 2;
  }
}

export function registerDelete(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('delete')
      .description(
        'delete a conversation everywhere: its bundle file, attachments and index entry, and the store; a later import leaves it out',
      )
      .argument(
        '<conversation-id>',
        "chatgraph's or the platform's conversation id, or its first 8 or more characters",
      ),
  )
    .option(
      '--json',
      'print one JSON document: {id, platformId, source, bundle, store, attachments, problems}',
    )
    .action(async (id: string, options: DeleteOptions) => {
      io.exitCode = await runDelete(id, options, io);
    });
}
