import neo4j, { type Driver } from 'neo4j-driver';
import { StoreConnectionError } from '../store.js';
import { withoutSecrets, type Neo4jTarget } from './neo4j-target.js';

// Every sentence about the target says its address with a password in it masked (a driver's
// message may quote the address as given).
function refusal(target: Neo4jTarget, sentence: string): StoreConnectionError {
  return new StoreConnectionError(withoutSecrets(sentence, target));
}

/** How long the driver retries a transaction on transient errors and lost connections. */
const RETRY_MILLISECONDS = 10_000;

/** The major version of a server from its agent string (`Neo4j/5.26.30`). */
export function serverMajor(agent: string): number | undefined {
  const match = /^Neo4j\/(\d+)\./i.exec(agent);
  return match ? Number(match[1]) : undefined;
}

/**
 * Connects and checks, before anything is written anywhere: the address, the login, the
 * database, and that the server is Neo4j 5 or newer. Any failure is one sentence.
 */
export async function connectNeo4j(target: Neo4jTarget): Promise<Driver> {
  if (!/^(bolt|neo4j)(\+s|\+ssc)?:\/\/[^/\s]+/i.test(target.url)) {
    throw refusal(
      target,
      `"${target.url}" is not a Neo4j address: give bolt://host:7687, or neo4j+s://… for Aura`,
    );
  }
  let driver: Driver;
  try {
    driver = neo4j.driver(target.url, neo4j.auth.basic(target.user, target.password), {
      disableLosslessIntegers: true,
      maxTransactionRetryTime: RETRY_MILLISECONDS,
      connectionTimeout: 15_000,
      userAgent: 'chatgraph',
    });
  } catch (error) {
    throw refusal(target, `"${target.url}" is not a Neo4j address: ${messageOf(error)}`);
  }
  try {
    const info = await driver.getServerInfo(target.database ? { database: target.database } : {});
    const major = serverMajor(info.agent ?? '');
    if (major === undefined || major < 5) {
      throw refusal(
        target,
        `Neo4j at ${target.url} is ${info.agent ?? 'of an unknown version'}; chatgraph needs Neo4j 5 or newer`,
      );
    }
    const session = driver.session(target.database ? { database: target.database } : {});
    try {
      await session.run('RETURN 1');
    } finally {
      await session.close();
    }
    return driver;
  } catch (error) {
    await driver.close();
    throw connectionError(target, error);
  }
}

/** A driver error as one sentence about the target. */
export function connectionError(target: Neo4jTarget, error: unknown): Error {
  if (error instanceof StoreConnectionError) return error;
  const code = (error as { code?: unknown }).code;
  if (
    code === 'Neo.ClientError.Security.Unauthorized' ||
    code === 'Neo.ClientError.Security.AuthenticationRateLimit'
  ) {
    return refusal(
      target,
      `Neo4j at ${target.url} refused user "${target.user}": check NEO4J_PASSWORD (and --user)`,
    );
  }
  if (code === 'Neo.ClientError.Database.DatabaseNotFound') {
    return refusal(
      target,
      `Neo4j at ${target.url} has no database "${target.database ?? ''}": check --database or NEO4J_DATABASE`,
    );
  }
  if (code === 'ServiceUnavailable' || code === 'SessionExpired') {
    return refusal(
      target,
      `cannot reach Neo4j at ${target.url}: is the server running, and is the address right? (${firstLine(messageOf(error))})`,
    );
  }
  return refusal(target, `Neo4j at ${target.url} failed: ${firstLine(messageOf(error))}`);
}

/** The driver's error code (`Neo.ClientError…`, `ServiceUnavailable`), or ''. */
export function errorCode(error: unknown): string {
  const code: unknown =
    error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : '';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  // The driver's "please ensure…" advice is longer than the cause it ends with.
  const cause = /Caused by: (.*)$/.exec(text);
  return cause?.[1] ? cause[1].trim() : line.trim();
}
