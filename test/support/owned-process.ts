import {
  spawn,
  type ChildProcess,
  type ChildProcessWithoutNullStreams,
  type SpawnOptions,
  type SpawnOptionsWithoutStdio,
} from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

const TETHER = fileURLToPath(new URL('./tether.mjs', import.meta.url));

const owned = new Set<ChildProcess>();

/** Kills every process {@link spawnOwned} started that is still running. */
export function killOwned(): void {
  for (const child of owned)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  owned.clear();
}

/**
 * Starts a Node process that never outlives the test file that started it: killed after the
 * file's tests (whatever its hooks did), when the test's process exits, and, through the tether
 * it loads, when the test's process was killed without a chance to kill it.
 */
export function spawnOwned(
  args: readonly string[],
  options?: SpawnOptionsWithoutStdio,
): ChildProcessWithoutNullStreams;
export function spawnOwned(args: readonly string[], options: SpawnOptions): ChildProcess;
export function spawnOwned(args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const env = { ...(options.env ?? process.env), CHATGRAPH_TETHER_PARENT: String(process.pid) };
  const child = spawn(process.execPath, ['--import', TETHER, ...args], { ...options, env });
  owned.add(child);
  child.once('exit', () => owned.delete(child));
  return child;
}

// Registered while the importing test file is collected: its root suite runs it last.
afterAll(killOwned);
process.once('exit', killOwned);
