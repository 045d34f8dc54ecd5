import { join } from 'node:path';

/*
 * The names `sync` gives and reads in the shared folder (docs/sync.md):
 *
 *   DIR/<machine id>/<seq>/memory-store.json.age
 *   DIR/<machine id>/<seq>/conversations/<conversation id>.json.age
 *
 * `<seq>` is eight digits, one folder per export, in the order the machine wrote them. Only
 * these exact names are read: a sync tool's temporary file, a conflicted copy or anything else
 * dropped there is never taken for one of them (see `ignoredName`).
 */

/** The suffix of a sealed file (age). */
export const SEALED = '.age';
export const STORE_FILE = 'memory-store.json';
export const CONVERSATIONS = 'conversations';

/** An export folder's name for its sequence number, and back. */
export function seqName(seq: number): string {
  return String(seq).padStart(8, '0');
}

export function seqOf(name: string): number | undefined {
  return /^\d{8}$/.test(name) ? Number(name) : undefined;
}

/** A machine's folder name: its id as the group layer makes them (no dot first, no separator). */
export function isMachineFolder(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9_-]{2,63}$/.test(name);
}

/** The sealed file of a bundle file (`memory-store.json`, `conversations/<id>.json`). */
export function sealedPath(exportDir: string, ref: string): string {
  return join(exportDir, ...`${ref}${SEALED}`.split('/'));
}

export function conversationRef(id: string): string {
  return `${CONVERSATIONS}/${id}.json`;
}

/**
 * Files sync tools leave while they work, and the copies they make when two machines changed
 * one file: Syncthing's `.syncthing.NAME.tmp` and `~syncthing~NAME.tmp` (Windows) and
 * `NAME.sync-conflict-DATE-TIME-DEVICE.ext`, Dropbox's `.~NAME` and `NAME (NAME's conflicted
 * copy DATE).ext` and `NAME (Case Conflict).ext`, and any `*.tmp` or `*.partial` (ours
 * included: a file is written as `.NAME.PID.tmp` and renamed when complete).
 */
export function ignoredName(name: string): boolean {
  return (
    name.startsWith('.') ||
    name.startsWith('~') ||
    /\.(tmp|partial)$/i.test(name) ||
    /\.sync-conflict-/i.test(name) ||
    /\(.*conflicted copy.*\)/i.test(name) ||
    /\(case conflict( \d+)?\)/i.test(name)
  );
}
