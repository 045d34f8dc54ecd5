import type { Session } from 'neo4j-driver';
import { QueryLimitError } from '../query-limits.js';
import { QueryError, type QueryLimits, type Row } from '../store.js';
import { errorCode } from './neo4j-connect.js';
import { fromRecord, toParameter } from './neo4j-values.js';

/**
 * Runs a user's query in a READ transaction (the server refuses every write there, whatever
 * the text) with the time limit as the transaction's timeout, which the server enforces and
 * which ends the query on the server, not only the wait for it. Errors in the query come back
 * as {@link QueryError}; anything else is thrown as it is, for the store to name.
 */
export async function runUserQuery(
  session: Session,
  query: string,
  params: Record<string, unknown>,
  limits: QueryLimits,
): Promise<Row[]> {
  try {
    return await session.executeRead(
      async (tx) =>
        (await tx.run(query, toParameter(params) as Record<string, unknown>)).records.map(
          fromRecord,
        ),
      { timeout: Math.ceil(limits.timeoutSeconds * 1000) },
    );
  } catch (error) {
    const code = errorCode(error);
    if (/TransactionTimedOut|TransactionTimedOutClientConfiguration/.test(code))
      throw new QueryLimitError(
        `the query ran longer than ${limits.timeoutSeconds} s and was stopped`,
        {
          kind: 'timeout',
          value: limits.timeoutSeconds,
        },
      );
    if (/MemoryPoolOutOfMemoryError|TransactionOutOfMemoryError/.test(code))
      throw new QueryLimitError(
        `the query needed more memory than the Neo4j server allows a transaction and was stopped`,
      );
    // A lost server or a refused login is the store's to name; anything else came from the
    // query's text (fast-check found `/*/*/ MATCH` answered with a code of neither kind).
    if (
      code === 'ServiceUnavailable' ||
      code === 'SessionExpired' ||
      code.startsWith('Neo.ClientError.Security')
    )
      throw error;
    throw new QueryError(firstLine(error));
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n').find((line) => line.trim() !== '') ?? message).trim();
}
