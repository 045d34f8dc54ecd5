import { spawn } from 'node:child_process';
import { z } from 'zod';
import { QueryLimitError } from '../query-limits.js';
import { canLimitData } from './data-limit.js';
import { QueryError, type QueryLimits, type Row } from '../store.js';
import { childStart } from '../../at-rest/sqlite-key.js';
import { ChildPool, childCommand, lastStderrLine, pooled, type PooledChild } from './child-pool.js';

/** Queries running at once; one more is refused rather than queued behind a slow one. */
export const MAX_RUNNING_QUERIES = 4;

const Answer = z.union([
  z.object({ rows: z.array(z.record(z.unknown())) }),
  z.object({ error: z.string(), query: z.boolean(), wrote: z.boolean() }),
]);

/** The graph loaded, the query starts: its deadline runs from here. */
const Loaded = z.object({ loaded: z.literal(true) });

/**
 * The longest loading the graph a query reads may take (the store's own data, bounded by the
 * store: a large one takes seconds to load the first time, and is kept warm after).
 */
export const LOAD_TIMEOUT_SECONDS = 600;

interface Child extends PooledChild {
  memoryMb: number;
}

/**
 * Runs each user query in a child process over the store file: the operating system bounds the
 * memory the query takes beyond the graph it reads (RLIMIT_DATA, set by the child on itself
 * through prlimit once the graph is loaded; it counts what Grafeo allocates in native code as
 * well as the JavaScript heap, where an address-space limit stops Node itself from starting)
 * and it is killed at the deadline, so a query can neither take the machine's memory nor keep a core busy after
 * its caller gave up. A child is kept warm for the next query after rows or an error in the
 * query (every query runs in a transaction rolled back after it, and its projection is read by
 * nobody else); one whose query the engine's counters caught writing, or that failed in any
 * other way, is ended.
 */
export class CypherChildren {
  private readonly pool = new ChildPool<Child>(MAX_RUNNING_QUERIES, 'queries');

  constructor(
    private readonly file: string,
    /** The store's SQLCipher key, handed to each child over its stdin (see `childStart`). */
    private readonly key: string | undefined,
  ) {}

  /** Runs one read-only query within the limits. */
  async run(query: string, params: Record<string, unknown>, limits: QueryLimits): Promise<Row[]> {
    const answer = await this.pool.use(
      () => this.spawn(limits.memoryMb),
      (child) => this.ask(child, query, params, limits),
      {
        fits: (child) => child.memoryMb === limits.memoryMb,
        // An error in the query leaves the child as it was (its transaction is rolled back), so
        // a typo does not cost loading the graph again; one that wrote, or failed otherwise, ends it.
        keep: (answer) => !('error' in answer) || (answer.query && !answer.wrote),
      },
    );
    if (!('error' in answer)) return answer.rows;
    throw answer.query ? new QueryError(answer.error) : new Error(answer.error);
  }

  /** Ends every child. */
  close(): void {
    this.pool.close();
  }

  private spawn(memoryMb: number): Child {
    const perQuery = canLimitData();
    // The folder's key, when encrypted, goes over stdin: never in the child's environment.
    const start = childStart(this.key);
    const node = [
      process.execPath,
      ...childCommand('cypher-child'),
      this.file,
      ...(perQuery ? ['--limit-each-query'] : []),
      ...start.args,
    ];
    const options = {
      stdio: [start.stdin, 'ignore', 'pipe', 'ipc'] as ('ignore' | 'pipe' | 'ipc')[],
      serialization: 'advanced' as const,
      env: start.env,
    };
    // Without prlimit the limit is set once, by the shell between fork and exec, and then binds
    // the graph the child loads as well as the query; on Windows there is none (time only).
    const spawned =
      perQuery || process.platform === 'win32'
        ? spawn(node[0] as string, node.slice(1), options)
        : spawn(
            '/bin/sh',
            ['-c', 'ulimit -d "$0" && exec "$@"', String(Math.ceil(memoryMb * 1024)), ...node],
            options,
          );
    start.handOver(spawned);
    return pooled<Child>({ process: spawned, memoryMb, stderr: '' });
  }

  private ask(
    child: Child,
    query: string,
    params: Record<string, unknown>,
    limits: QueryLimits,
  ): Promise<z.infer<typeof Answer>> {
    const spawned = child.process;
    return new Promise((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        spawned.off('message', onMessage);
        spawned.off('exit', onExit);
      };
      const stop = (error: Error): void => {
        cleanup();
        spawned.kill('SIGKILL');
        reject(error);
      };
      let timer = setTimeout(() => {
        stop(
          new QueryLimitError(
            `loading the graph for the query took longer than ${String(LOAD_TIMEOUT_SECONDS)} s and was stopped`,
          ),
        );
      }, LOAD_TIMEOUT_SECONDS * 1000);
      const onMessage = (message: unknown): void => {
        if (Loaded.safeParse(message).success) {
          clearTimeout(timer);
          timer = setTimeout(() => {
            stop(
              new QueryLimitError(
                `the query ran longer than ${String(limits.timeoutSeconds)} s and was stopped`,
                { kind: 'timeout', value: limits.timeoutSeconds },
              ),
            );
          }, limits.timeoutSeconds * 1000);
          return;
        }
        cleanup();
        const answer = Answer.safeParse(message);
        if (answer.success) resolve(answer.data);
        else reject(new Error('the query process answered something that is not an answer'));
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        cleanup();
        reject(endedError(child, code, signal, limits));
      };
      spawned.on('message', onMessage);
      spawned.on('exit', onExit);
      spawned.send({ query, params, memoryMb: limits.memoryMb }, (error) => {
        if (error) {
          cleanup();
          reject(endedError(child, spawned.exitCode, spawned.signalCode, limits));
        }
      });
    });
  }
}

// A child that ended before answering: out of memory, almost always (the engine aborts when an
// allocation fails under the limit; V8 reports a fatal OOM).
function endedError(
  child: Child,
  code: number | null,
  signal: NodeJS.Signals | null,
  limits: QueryLimits,
): Error {
  if (/memory|alloc|OOM/i.test(child.stderr) || signal === 'SIGABRT' || signal === 'SIGTRAP')
    return new QueryLimitError(
      `the query needed more than ${String(limits.memoryMb)} MB and was stopped`,
      { kind: 'memory', value: limits.memoryMb },
    );
  const how = signal !== null ? `signal ${signal}` : `exit code ${String(code)}`;
  const last = lastStderrLine(child);
  return new Error(`the query process ended before answering (${how})${last ? `: ${last}` : ''}`);
}
