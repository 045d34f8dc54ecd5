import {
  ConversationNotFoundError,
  deleteConversation,
  resolveDataDir,
  waitingMessage,
  type Neo4jTarget,
} from '../index.js';

/**
 * `chatgraph delete <id>`: deletes one conversation everywhere and says what went; returns the
 * exit code (0 deleted, 1 deleted but something stayed behind, 2 no such conversation).
 */
export async function runDelete(
  id: string,
  options: { dataDir?: string | undefined; neo4j: Neo4jTarget | undefined; json?: boolean },
): Promise<number> {
  const dataDir = resolveDataDir(options.dataDir);
  try {
    const result = await deleteConversation(dataDir, id, {
      neo4j: options.neo4j,
      onWait: (holder) => {
        process.stderr.write(`chatgraph: ${waitingMessage(holder)}\n`);
      },
    });
    if (options.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } else {
      const where = [
        result.bundle ? 'the bundle' : '',
        result.store ? (options.neo4j ? 'Neo4j' : 'the store') : '',
      ]
        .filter(Boolean)
        .join(' and ');
      process.stdout.write(
        `deleted conversation ${result.id}${result.platformId ? ` (${result.source ?? ''} ${result.platformId})` : ''} from ${where}${result.attachments > 0 ? `, with ${result.attachments} attachment file(s)` : ''}; importing its export again leaves it out (import --restore brings it back)\n`,
      );
      for (const problem of result.problems)
        process.stderr.write(`chatgraph: ${problem.file ?? ''}: ${problem.message}\n`);
    }
    return result.problems.length > 0 ? 1 : 0;
  } catch (error) {
    if (!(error instanceof ConversationNotFoundError)) throw error;
    process.stderr.write(`chatgraph: ${error.message}\n`);
    return 2;
  }
}
