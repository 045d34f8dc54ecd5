import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3-multiple-ciphers';

/**
 * The deadline of a search run in the CLI's own thread (one search, then the process ends): a
 * statement of FTS5 cannot be interrupted from JavaScript, so a thread beside it keeps the time.
 *
 * - At the deadline the watchdog marks it passed. The search's next statement sees the mark and
 *   stops there with the timeout error, which the CLI reports as any error (its line, exit
 *   code 2): the usual way, since a search is several statements.
 * - A single statement still running {@link GRACE_MS} after the deadline cannot be waited for:
 *   the watchdog writes the line and ends the process itself (C's exit(), exit code 2).
 *
 * Only one of the two may act. The state below is changed by compare-and-swap: whoever moves
 * it first acts, and a search thread that finds the watchdog acting waits for the end. C's
 * exit() tears down what JavaScript runs on: a search going on into JavaScript meanwhile could
 * crash the process (CI twice saw it end by a signal, not exit code 2, when the watchdog ended
 * the process at the deadline itself).
 */
const RUNNING = 0;
/** The deadline has passed; the search stops at its next statement. */
const PASSED = 1;
/** The search took the deadline and stops with the error. */
const SEARCH_STOPS = 2;
/** The watchdog ends the process. */
const WATCHDOG_ENDS = 3;
/** The search finished first: the watchdog does nothing. */
const FINISHED = 4;

/** How long after the deadline a single statement is waited for before the process is ended. */
const GRACE_MS = 2000;

// The watchdog's whole program. A worker's process.exit() ends only its thread, and a signal
// handler would wait for the blocked thread it runs on; WASI's proc_exit, with returnOnExit
// false, is C's exit() for the whole process, called from this thread. Should WASI fail,
// SIGKILL still ends the search (137). WASI's experimental warning is silenced: it would go
// through the blocked main thread anyway. A process that finished first terminates the thread;
// unref'd, it never holds the process open.
const WATCHDOG = `const { workerData } = require('node:worker_threads');
const { state, line, exit, until, grace } = workerData;
setTimeout(() => {
  if (Atomics.compareExchange(state, 0, ${RUNNING}, ${PASSED}) !== ${RUNNING}) return;
  setTimeout(() => {
    if (Atomics.compareExchange(state, 0, ${PASSED}, ${WATCHDOG_ENDS}) !== ${PASSED}) return;
    require('node:fs').writeSync(2, line);
    try {
      process.emitWarning = () => undefined;
      const { WASI } = require('node:wasi');
      const wasi = new WASI({ version: 'preview1', returnOnExit: false });
      const module = new WebAssembly.Module(exit);
      wasi.start(new WebAssembly.Instance(module, wasi.getImportObject()));
    } finally {
      process.kill(process.pid, 'SIGKILL');
    }
  }, grace);
}, Math.max(0, until - Date.now()));`;

/** The exit code a search stopped at its deadline ends a one-shot process with. */
const DEADLINE_EXIT_CODE = 2;

// A WebAssembly module whose _start calls WASI's proc_exit(DEADLINE_EXIT_CODE): its type,
// import, function, memory (WASI requires one exported), export and code sections.
const EXIT_MODULE = (() => {
  const text = (s: string): number[] => [s.length, ...Buffer.from(s)];
  const section = (id: number, body: number[]): number[] => [id, body.length, ...body];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [2, 0x60, 1, 0x7f, 0, 0x60, 0, 0]),
    ...section(2, [1, ...text('wasi_snapshot_preview1'), ...text('proc_exit'), 0x00, 0]),
    ...section(3, [1, 1]),
    ...section(5, [1, 0x00, 1]),
    ...section(7, [2, ...text('memory'), 0x02, 0, ...text('_start'), 0x00, 1]),
    ...section(10, [1, 6, 0, 0x41, DEADLINE_EXIT_CODE, 0x10, 0, 0x0b]),
  ]);
})();

/** A started watchdog. */
export interface Watchdog {
  /**
   * The store as the search uses it, each statement run only after asking the watchdog: past
   * the deadline, `timedOut()` is thrown instead.
   */
  gate(db: Database.Database, timedOut: () => Error): Database.Database;
  /** The search ended, whichever way: its answer stands, unless the watchdog ends the process. */
  finished(): void;
}

// A statement's methods that run it (the others set how it runs, and return the statement).
const RUNS = new Set<PropertyKey>(['get', 'all', 'iterate', 'run']);

/** Starts the watchdog of a search asked for now, with `timeoutSeconds` to run. */
export function startWatchdog(line: string, timeoutSeconds: number): Watchdog {
  const state = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(WATCHDOG, {
    eval: true,
    workerData: {
      line,
      until: Date.now() + timeoutSeconds * 1000,
      grace: GRACE_MS,
      exit: EXIT_MODULE,
      state,
    },
    stdout: false,
    stderr: false,
  });
  worker.unref();
  // The watchdog ends the process: nothing more runs here (nothing ever wakes this wait).
  const waitForTheEnd = (): never => {
    for (;;) Atomics.wait(state, 0, WATCHDOG_ENDS);
  };
  const ask = (timedOut: () => Error): void => {
    const now = Atomics.load(state, 0);
    if (now === RUNNING) return;
    if (now === PASSED && Atomics.compareExchange(state, 0, PASSED, SEARCH_STOPS) === PASSED) {
      void worker.terminate();
      throw timedOut();
    }
    if (Atomics.load(state, 0) === WATCHDOG_ENDS) waitForTheEnd();
  };
  return {
    gate(db, timedOut) {
      const gateStatement = (statement: Database.Statement): Database.Statement => {
        const gated: Database.Statement = new Proxy(statement, {
          get(target, key) {
            const value: unknown = Reflect.get(target, key, target);
            if (typeof value !== 'function') return value;
            return (...args: unknown[]): unknown => {
              if (RUNS.has(key)) ask(timedOut);
              const result: unknown = Reflect.apply(value, target, args);
              // pluck(), raw(), bind()... return the statement: the gated one.
              return result === target ? gated : result;
            };
          },
        });
        return gated;
      };
      const gatedDb: Database.Database = new Proxy(db, {
        get(target, key) {
          const value: unknown = Reflect.get(target, key, target);
          if (key === 'prepare') return (source: string) => gateStatement(target.prepare(source));
          if (key === 'exec')
            return (source: string) => {
              ask(timedOut);
              target.exec(source);
              return gatedDb;
            };
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
      return gatedDb;
    },
    finished() {
      // An answer complete before the watchdog acts stands, even past the deadline.
      const before = Atomics.compareExchange(state, 0, RUNNING, FINISHED);
      if (before === PASSED) Atomics.compareExchange(state, 0, PASSED, FINISHED);
      if (Atomics.load(state, 0) === WATCHDOG_ENDS) waitForTheEnd();
      void worker.terminate();
    },
  };
}
