import { pagerCommand, rowsOf, throughPager } from './pager.js';

/**
 * Where a command writes: its lines, its warnings and its exit code. The process's own in
 * `main.ts`; a test's in memory, so a command runs in-process and its output is read back.
 */
export interface CliIo {
  /** A line on standard output. */
  out: (text: string) => void;
  /** A line on standard error. */
  err: (text: string) => void;
  /** Whether standard output is a terminal (search highlights matches with bold then). */
  readonly stdoutIsTTY: boolean;
  /** The terminal's width and height, when standard output is one. */
  readonly terminal?: { columns: number; rows: number };
  /**
   * Long text for a person to read: through the pager when standard output is a terminal and
   * the text is longer than its screen (see `pager.ts`), else written as it is.
   */
  page: (text: string) => Promise<void>;
  /** 0 all read, 1 done but something was lost, 2 nothing usable (or a usage error). */
  exitCode: number;
}

/** The process's standard streams. */
export function processIo(): CliIo {
  const out = (text: string): void => {
    process.stdout.write(`${text}\n`);
  };
  const tty = process.stdout.isTTY;
  const terminal = tty
    ? { columns: process.stdout.columns || 80, rows: process.stdout.rows || 24 }
    : undefined;
  return {
    out,
    err: (text) => process.stderr.write(`${text}\n`),
    stdoutIsTTY: tty,
    ...(terminal ? { terminal } : {}),
    page: async (text) => {
      const pager = pagerCommand();
      if (terminal && pager !== undefined && rowsOf(text, terminal.columns) >= terminal.rows)
        if (await throughPager(pager, text)) return;
      out(text);
    },
    exitCode: 0,
  };
}

/** An in-memory one: what a command printed, line by line. */
export function memoryIo(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (text) => stdout.push(text),
    err: (text) => stderr.push(text),
    stdoutIsTTY: false,
    page: (text) => {
      stdout.push(text);
      return Promise.resolve();
    },
    exitCode: 0,
  };
}
