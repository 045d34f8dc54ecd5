import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { QueryLimitError, SEARCH_TIMEOUT_SECONDS, searchTimedOut } from '../query-limits.js';
import { QueryError, type SearchQuery, type SearchResult } from '../store.js';

/** Searches running at once; one more is refused rather than queued behind slow ones. */
export const MAX_RUNNING_SEARCHES = 4;

const Ready = z.object({ ready: z.literal(true) });

/** The longest a search process may take to start and open the store. */
const START_TIMEOUT_SECONDS = 60;

interface Child {
  process: ChildProcess;
  /** Resolves once the child has opened the store (a search's deadline runs from then). */
  ready: Promise<void>;
}

const Answer = z.union([
  z.object({ result: z.record(z.unknown()) }),
  z.object({ error: z.string(), query: z.boolean() }),
]);

// The compiled child beside this module; from source (tests), the TypeScript through a loader.
function childCommand(): string[] {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    return [
      '--import',
      fileURLToPath(new URL('../../../scripts/ts-loader.mjs', here)),
      fileURLToPath(new URL('./search-child.ts', here)),
    ];
  }
  return [fileURLToPath(new URL('./search-child.js', here))];
}

/**
 * Runs keyword searches in child processes over the store file, each within a deadline: a
 * search's FTS5 work is one native call that cannot be interrupted in the caller's thread (the
 * store's driver has no progress handler), so it runs where it can be killed. One child is kept
 * warm for the next search; one past its deadline is killed.
 */
export class SearchChildren {
  private idle: Child | undefined;
  private readonly running = new Set<Child>();

  constructor(private readonly file: string) {}

  /** Runs one search; past `timeoutSeconds` it is stopped with a one-line {@link QueryLimitError}. */
  async run(query: SearchQuery, timeoutSeconds = SEARCH_TIMEOUT_SECONDS): Promise<SearchResult> {
    if (this.running.size >= MAX_RUNNING_SEARCHES)
      throw new QueryLimitError(
        `${MAX_RUNNING_SEARCHES} searches are running already: try again when one of them ends`,
      );
    const child = this.take();
    this.running.add(child);
    let answer: z.infer<typeof Answer>;
    try {
      answer = await ask(child, query, timeoutSeconds);
    } catch (error) {
      end(child);
      throw error;
    } finally {
      this.running.delete(child);
    }
    this.release(child);
    if ('error' in answer)
      throw answer.query ? new QueryError(answer.error) : new Error(answer.error);
    // The child's own searchSqlite made it: the shape is the store's result.
    return answer.result as unknown as SearchResult;
  }

  /** Ends every child. */
  close(): void {
    if (this.idle) end(this.idle);
    this.idle = undefined;
    for (const child of this.running) end(child);
  }

  private take(): Child {
    const idle = this.idle;
    this.idle = undefined;
    if (idle?.process.connected) {
      holdOpen(idle.process, true);
      return idle;
    }
    if (idle) end(idle);
    const spawned = spawn(process.execPath, [...childCommand(), this.file], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    spawned.on('error', () => undefined);
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`the search process did not start within ${START_TIMEOUT_SECONDS} s`));
      }, START_TIMEOUT_SECONDS * 1000);
      const onMessage = (message: unknown): void => {
        if (!Ready.safeParse(message).success) return;
        done();
        resolve();
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        done();
        reject(endedError(code, signal));
      };
      const done = (): void => {
        clearTimeout(timer);
        spawned.off('message', onMessage);
        spawned.off('exit', onExit);
      };
      spawned.on('message', onMessage);
      spawned.on('exit', onExit);
    });
    // Awaited by the search; a child that never starts is not an unhandled rejection besides.
    ready.catch(() => undefined);
    return { process: spawned, ready };
  }

  private release(child: Child): void {
    if (this.idle || !child.process.connected) {
      end(child);
      return;
    }
    holdOpen(child.process, false);
    this.idle = child;
  }
}

function end({ process: child }: Child): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function endedError(code: number | null, signal: NodeJS.Signals | null): Error {
  return new Error(
    `the search process ended before answering (${signal !== null ? `signal ${signal}` : `exit code ${String(code)}`})`,
  );
}

// A warm child waiting for the next search does not keep the process alive; a busy one does.
function holdOpen(child: ChildProcess, hold: boolean): void {
  for (const handle of [child, child.channel]) {
    if (hold) handle?.ref();
    else handle?.unref();
  }
}

async function ask(
  { process: child, ready }: Child,
  query: SearchQuery,
  timeoutSeconds: number,
): Promise<z.infer<typeof Answer>> {
  await ready;
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const timer = setTimeout(() => {
      cleanup();
      child.kill('SIGKILL');
      reject(searchTimedOut(timeoutSeconds));
    }, timeoutSeconds * 1000);
    const onMessage = (message: unknown): void => {
      cleanup();
      const answer = Answer.safeParse(message);
      if (answer.success) resolve(answer.data);
      else reject(new Error('the search process answered something that is not an answer'));
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
      cleanup();
      reject(endedError(code, signal));
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
    const { timeoutSeconds: _deadline, ...asked } = query;
    child.send(asked, (error) => {
      if (error) onExit(child.exitCode, child.signalCode);
    });
  });
}
