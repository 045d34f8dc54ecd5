import neo4j, { type Driver, type ManagedTransaction, type Session } from 'neo4j-driver';
import { QueryError, type Row } from '../store.js';
import { connectionError, errorCode } from './neo4j-connect.js';
import { dropOutdatedTextIndex, fillStems, stemsIndexExists } from './neo4j-full-text.js';
import { MARK_STEMMED, schemaStatements } from './neo4j-schema.js';
import { renewOutdatedVectorIndex } from './neo4j-vector-index.js';
import type { Neo4jTarget } from './neo4j-target.js';
import { fromRecord } from './neo4j-values.js';

/** Runs a read query and returns its rows as plain values. */
export type Neo4jRead = (query: string, params?: Record<string, unknown>) => Promise<Row[]>;

/**
 * Sessions on one driver: reads and writes each in a transaction the driver retries, the
 * constraints and indexes created before the first write, and driver errors turned into the
 * store's errors (a query error, or one sentence for a lost server).
 */
export class Neo4jSessions {
  private schemaReady = false;

  constructor(
    readonly driver: Driver,
    readonly target: Neo4jTarget,
  ) {}

  session(mode: 'READ' | 'WRITE'): Session {
    return this.driver.session({
      defaultAccessMode: mode === 'READ' ? neo4j.session.READ : neo4j.session.WRITE,
      ...(this.target.database ? { database: this.target.database } : {}),
    });
  }

  /**
   * Rows of a read query; with `timeout`, the server ends the transaction after that many
   * milliseconds and `timedOut()` is thrown.
   */
  async read(
    query: string,
    params: Record<string, unknown> = {},
    deadline?: { timeout: number; timedOut: () => Error },
  ): Promise<Row[]> {
    const session = this.session('READ');
    try {
      return await session.executeRead(
        async (tx) => (await tx.run(query, params)).records.map(fromRecord),
        deadline ? { timeout: deadline.timeout } : undefined,
      );
    } catch (error) {
      if (deadline && /TransactionTimedOut/.test(errorCode(error))) throw deadline.timedOut();
      throw this.failure(error);
    } finally {
      await session.close();
    }
  }

  async write<T>(work: (tx: ManagedTransaction) => Promise<T>): Promise<T> {
    await this.ensureSchema();
    const session = this.session('WRITE');
    try {
      return await session.executeWrite(work);
    } catch (error) {
      throw this.failure(error);
    } finally {
      await session.close();
    }
  }

  // A lost server mid-way is a connection error (one sentence); anything else a query error.
  failure(error: unknown): Error {
    if (error instanceof QueryError) return error;
    const code = errorCode(error);
    if (
      code.startsWith('Neo.ClientError.Statement') ||
      code.startsWith('Neo.ClientError.Procedure')
    )
      return new QueryError(firstLine(error));
    return connectionError(this.target, error);
  }

  /** Creates the constraints and indexes before the first write, and waits until they are online. */
  async ensureSchema(): Promise<void> {
    if (this.schemaReady) return;
    const session = this.session('WRITE');
    try {
      await dropOutdatedTextIndex(session);
      const stemmed = await stemsIndexExists(session);
      for (const statement of schemaStatements()) await session.run(statement);
      await session.run('CALL db.awaitIndexes(300)');
      await renewOutdatedVectorIndex(session);
      // A store an older version wrote: its messages get their stems before the first write.
      if (!stemmed && (await fillStems(session)) > 0) await session.run(MARK_STEMMED);
    } catch (error) {
      throw this.failure(error);
    } finally {
      await session.close();
    }
    this.schemaReady = true;
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n').find((line) => line.trim() !== '') ?? message).trim();
}
