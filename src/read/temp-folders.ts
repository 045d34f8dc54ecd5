import { lstatSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * chatgraph's temporary folders (an `export --from`'s throwaway data folder, with a plain index
 * of everything read; a web upload; a nested zip spooled to disk; the private copy of a coding
 * agent's SQLite store). Each is named with its
 * process id, `chatgraph-<kind>-<pid>-XXXXXX` in the temporary directory, private (0700,
 * mkdtemp's), and removed when the process ends, by Ctrl-C, SIGTERM or SIGHUP too; one whose
 * process was killed outright (kill -9, a power cut) is swept by the next chatgraph process
 * that makes one, or starts a server.
 */

/** What a temporary folder holds, in its name. */
export type TempKind = 'export' | 'upload' | 'zip' | 'sqlite';

const OURS = /^chatgraph-(?:export|upload|zip|sqlite)-(\d+)-/;
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const live = new Set<string>();
let swept = false;
let hooked = false;

/** A new private temporary folder of this process (see the module's note). */
export async function makeTempFolder(kind: TempKind): Promise<string> {
  if (!swept) sweepTempFolders();
  hook();
  const dir = await mkdtemp(join(tmpdir(), `chatgraph-${kind}-${String(process.pid)}-`));
  live.add(dir);
  return dir;
}

/** Removes a temporary folder made by {@link makeTempFolder}. */
export async function removeTempFolder(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  live.delete(dir);
}

/**
 * Removes the temporary folders of chatgraph processes that are gone (killed before they could
 * remove their own): those of this user, named with a process id that no process has now.
 */
export function sweepTempFolders(): void {
  swept = true;
  const root = tmpdir();
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return;
  }
  const uid = process.getuid?.();
  for (const name of names) {
    const pid = OURS.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    const path = join(root, name);
    try {
      const info = lstatSync(path);
      if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) continue;
      rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone meanwhile, or not ours to remove: left.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeLive(): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
}

// Removed at exit, and on a signal: when nothing else of the process handles that signal, it
// then ends as the signal would have ended it (the same exit status a shell sees).
function hook(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', removeLive);
  for (const signal of SIGNALS) {
    const onSignal = (): void => {
      removeLive();
      if (process.listenerCount(signal) > 1) return;
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}
