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
  /** 0 all read, 1 done but something was lost, 2 nothing usable (or a usage error). */
  exitCode: number;
}

/** The process's standard streams. */
export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
    stdoutIsTTY: process.stdout.isTTY,
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
    exitCode: 0,
  };
}
