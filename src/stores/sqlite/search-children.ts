import { spawn } from 'node:child_process';
import type Database from 'better-sqlite3-multiple-ciphers';
import { hitReasonSchema, searchHitSchema } from '../../search/search-hit.js';
import { z } from 'zod';
import { SEARCH_TIMEOUT_SECONDS, searchTimedOut } from '../query-limits.js';
import { QueryError, type SearchQuery, type SearchResult } from '../store.js';
import {
  ChildPool,
  childCommand,
  endChild,
  lastStderrLine,
  pooled,
  type PooledChild,
} from './child-pool.js';
import { asStoreDamage } from './store-damage.js';
import { childStart } from '../../at-rest/sqlite-key.js';
import type { SearchHere } from './search-here.js';
import { searchSqlite } from './sqlite-search.js';
import { startWatchdog } from './search-watchdog.js';

/** Searches running at once; one more is refused rather than queued behind slow ones. */
export const MAX_RUNNING_SEARCHES = 4;

const Ready = z.object({ ready: z.literal(true) });

interface Child extends PooledChild {
  /** Resolves once the child has opened the store. */
  ready: Promise<void>;
}

// A keyword hit of the embedded store: the one hit schema without what the recaller adds in the
// parent (memories, meaning). Strict, as that schema is: a field the child sends that is not
// declared fails the answer loudly, rather than vanishing at the process boundary.
const Hit = searchHitSchema
  .omit({ memory: true, why: true })
  .extend({ why: hitReasonSchema.pick({ keyword: true }).strict().optional() });

/** A keyword search's result as the child sends it (strict, as its hits). */
export const ChildSearchResult = z
  .object({
    mode: z.literal('keyword'),
    hits: z.array(Hit),
    conversationCount: z.number().optional(),
    matches: z.number(),
    matchesCapped: z.boolean(),
    ranked: z.number(),
    offset: z.number().optional(),
    hint: z.string().optional(),
    notice: z.string().optional(),
  })
  .strict();

const Answer = z.union([
  z.object({ result: ChildSearchResult }),
  z.object({ error: z.string(), query: z.boolean() }),
]);

/**
 * Runs keyword searches in child processes over the store file, each within a deadline that
 * covers the child's start: a search's FTS5 work is one native call that cannot be interrupted
 * in the caller's thread (the store's driver has no progress handler), so it runs where it can
 * be killed. One child is kept warm for the next search; one past its deadline is killed.
 */
export class SearchChildren {
  private readonly pool = new ChildPool<Child>(MAX_RUNNING_SEARCHES, 'searches');

  constructor(
    private readonly file: string,
    /** The store's SQLCipher key, handed to each child over its stdin (see `childStart`). */
    private readonly key: string | undefined,
    /** The store's own connection, searched through when `here` is given. */
    private readonly db: () => Database.Database,
    /** A one-shot command's searches run in its own thread (see `search-here`). */
    private readonly here?: SearchHere,
  ) {}

  /** Runs one search; past `timeoutSeconds` it is stopped with a one-line {@link QueryLimitError}. */
  async run(query: SearchQuery, timeoutSeconds = SEARCH_TIMEOUT_SECONDS): Promise<SearchResult> {
    if (this.here) return Promise.resolve(this.runHere(this.here, query, timeoutSeconds));
    let answer: z.infer<typeof Answer>;
    try {
      answer = await this.pool.use(
        () => this.spawn(),
        (child) => ask(child, query, timeoutSeconds),
      );
    } catch (error) {
      // A child that met a damaged store at its open says so as the parent would.
      throw asStoreDamage(error, this.file);
    }
    if ('error' in answer)
      throw asStoreDamage(
        answer.query ? new QueryError(answer.error) : new Error(answer.error),
        this.file,
      );
    return resultOf(answer.result);
  }

  // In this thread, as the child would (the same query fields, errors as it sends them back),
  // watched by a thread that stops it at the deadline (search-watchdog.ts).
  private runHere(here: SearchHere, query: SearchQuery, timeoutSeconds: number): SearchResult {
    const watchdog = startWatchdog(
      here.deadlineLine(searchTimedOut(timeoutSeconds).message),
      timeoutSeconds,
    );
    try {
      const { timeoutSeconds: _deadline, mode: _mode, ...asked } = query;
      // Each statement asks the watchdog first: past the deadline, the search stops there, as
      // an error this thread reports (see search-watchdog.ts).
      return searchSqlite(
        watchdog.gate(this.db(), () => searchTimedOut(timeoutSeconds)),
        asked,
      );
    } catch (error) {
      throw error instanceof QueryError ? error : asStoreDamage(error, this.file);
    } finally {
      watchdog.finished();
    }
  }

  /** Ends every child. */
  close(): void {
    this.pool.close();
  }

  private spawn(): Child {
    // The folder's key, when encrypted, goes over stdin: never in the child's environment.
    const start = childStart(this.key);
    const spawned = spawn(
      process.execPath,
      [...childCommand('search-child'), this.file, ...start.args],
      { stdio: [start.stdin, 'ignore', 'pipe', 'ipc'], serialization: 'advanced', env: start.env },
    );
    start.handOver(spawned);
    const child = pooled<Child>({ process: spawned, stderr: '', ready: Promise.resolve() });
    child.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown): void => {
        if (!Ready.safeParse(message).success) return;
        done();
        resolve();
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        done();
        reject(endedError(child, code, signal));
      };
      const done = (): void => {
        spawned.off('message', onMessage);
        spawned.off('exit', onExit);
      };
      spawned.on('message', onMessage);
      spawned.on('exit', onExit);
    });
    // Awaited by the search; a child that never starts is not an unhandled rejection besides.
    child.ready.catch(() => undefined);
    return child;
  }
}

// The parsed result as the store's type (zod's output spells absent optionals as `undefined`,
// which the exact optional types do not take: only the fields present are copied).
function resultOf(parsed: z.infer<typeof ChildSearchResult>): SearchResult {
  const { offset, hint, notice, hits, conversationCount, ...rest } = parsed;
  return {
    ...rest,
    hits,
    ...(conversationCount !== undefined ? { conversationCount } : {}),
    ...(offset !== undefined ? { offset } : {}),
    ...(hint !== undefined ? { hint } : {}),
    ...(notice !== undefined ? { notice } : {}),
  };
}

/** What is wrong with a child's answer: the result's first problem (its field named), else the error's. */
function answerProblem(message: unknown): string {
  const asResult = z.object({ result: ChildSearchResult }).safeParse(message);
  const issue = asResult.success ? undefined : asResult.error.issues[0];
  if (!issue) return 'neither a result nor an error';
  const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
  return `${issue.path.join('.') || 'the answer'}: ${issue.message}${keys}`;
}

function endedError(child: PooledChild, code: number | null, signal: NodeJS.Signals | null): Error {
  const how = signal !== null ? `signal ${signal}` : `exit code ${String(code)}`;
  const last = lastStderrLine(child);
  return new Error(`the search process ended before answering (${how})${last ? `: ${last}` : ''}`);
}

// The deadline runs from the ask, so a child slow to start counts against it too.
async function ask(
  child: Child,
  query: SearchQuery,
  timeoutSeconds: number,
): Promise<z.infer<typeof Answer>> {
  const { process: spawned } = child;
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      spawned.off('message', onMessage);
      spawned.off('exit', onExit);
      return true;
    };
    const timer = setTimeout(() => {
      if (!settle()) return;
      endChild(child);
      reject(searchTimedOut(timeoutSeconds));
    }, timeoutSeconds * 1000);
    const onMessage = (message: unknown): void => {
      if (Ready.safeParse(message).success || !settle()) return;
      const answer = Answer.safeParse(message);
      if (answer.success) resolve(answer.data);
      else
        reject(
          new Error(
            `the search process answered something that is not an answer: ${answerProblem(message)}`,
          ),
        );
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (settle()) reject(endedError(child, code, signal));
    };
    child.ready.then(
      () => {
        if (settled) return;
        spawned.on('message', onMessage);
        spawned.on('exit', onExit);
        const { timeoutSeconds: _deadline, mode: _mode, ...asked } = query;
        spawned.send(asked, (error) => {
          if (error) onExit(spawned.exitCode, spawned.signalCode);
        });
      },
      (error: unknown) => {
        if (settle()) reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
