import type { ChildProcess } from 'node:child_process';
import { spawnOwned } from './owned-process.js';
import { CLI } from './run-cli.js';

/** A running `chatgraph watch` (or `serve --watch`, `mcp --watch`) and its output so far. */
export interface WatchProcess {
  child: ChildProcess;
  /** Every line printed so far (stdout and stderr). */
  lines: string[];
  /** Resolves with the first line matching `pattern` printed after the `from`-th line. */
  waitFor(pattern: RegExp, from?: number): Promise<string>;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built CLI with `args`, collecting its lines (piped: one event per line). */
export function startCli(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): WatchProcess {
  const child = spawnOwned([CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; from: number; resolve: (line: string) => void }[] = [];
  let exited: number | null | undefined;
  const offer = (): void => {
    for (const waiter of [...waiters]) {
      const line = lines.slice(waiter.from).find((l) => waiter.pattern.test(l));
      if (line !== undefined) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
    }
  };
  const collect = (stream: NodeJS.ReadableStream | null): void => {
    let carry = '';
    stream?.on('data', (chunk: Buffer) => {
      const parts = (carry + chunk.toString()).split('\n');
      carry = parts.pop() ?? '';
      lines.push(...parts);
      offer();
    });
  };
  collect(child.stdout);
  collect(child.stderr);
  const exit = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      exited = code;
      resolve(code);
    });
  });
  return {
    child,
    lines,
    waitFor: (pattern, from = 0) =>
      new Promise<string>((resolve, reject) => {
        waiters.push({ pattern, from, resolve });
        offer();
        void exit.then(() => {
          if (waiters.some((w) => w.resolve === resolve))
            reject(
              new Error(
                `exited (${String(exited)}) before ${String(pattern)}:\n${lines.join('\n')}`,
              ),
            );
        });
      }),
    stop: (signal = 'SIGTERM') => {
      if (exited === undefined) child.kill(signal);
      return exit;
    },
  };
}
