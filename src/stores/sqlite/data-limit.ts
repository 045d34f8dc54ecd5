import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let available: boolean | undefined;

/**
 * Whether this process can bound a process's data segment (RLIMIT_DATA) while it runs: Linux,
 * with util-linux's `prlimit` (Node itself cannot call setrlimit).
 */
export function canLimitData(): boolean {
  if (available === undefined) {
    try {
      execFileSync('prlimit', ['--version'], { stdio: 'ignore' });
      available = process.platform === 'linux';
    } catch {
      available = false;
    }
  }
  return available;
}

/**
 * Sets this process's soft RLIMIT_DATA (the hard limit stays as it is, so the soft one can be
 * raised again): `undefined` lifts it. Allocations past it fail, in native code as in V8.
 */
export function limitOwnData(bytes: number | undefined): void {
  const value = bytes === undefined ? 'unlimited' : String(Math.ceil(bytes));
  execFileSync('prlimit', ['--pid', String(process.pid), `--data=${value}:`], { stdio: 'ignore' });
}

/** The bytes this process's data segment holds now (VmData, what RLIMIT_DATA counts). */
export function dataInUse(): number {
  const match = /VmData:\s+(\d+)\s*kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}
