import type { LookIn } from '../discover/agent-locations.js';
import type { LockHolder } from '../folder/write-lock.js';
import type { ImportExport } from './follow-export.js';
import type { FollowEvent } from './follow-event.js';

/** Options of `followFolders` (and of its runner). */
export interface FollowOptions {
  /** Folders to follow: any agent's session files there, and exports dropped in. */
  folders?: readonly string[] | undefined;
  /**
   * The coding agents to follow, where `import --agents` finds them: all of them (`true`), or
   * those named (source ids: `codex`, `cline`). Default: all, when no folder is given.
   */
  agents?: boolean | readonly string[] | undefined;
  /** Where to look for the agents (tests lay out a home of their own); this machine's by default. */
  at?: LookIn | undefined;
  /** Embed new messages too, when the data folder has vectors. */
  embed?: boolean | undefined;
  /** Mask secrets before anything is written, as `import --redact` does. */
  redact?: boolean | undefined;
  /** Poll instead of file-system events (network file systems). */
  poll?: boolean | undefined;
  /** Poll period (default 2 s); with events, a safety re-scan every `rescanMilliseconds` (60 s). */
  pollMilliseconds?: number | undefined;
  rescanMilliseconds?: number | undefined;
  /** How often a SQLite store's stamp is looked at, and read at most (2 s). */
  storeMilliseconds?: number | undefined;
  /** How long a size must stay the same before a cut-off last line or a dropped export counts (500 ms). */
  settleMilliseconds?: number | undefined;
  /** Quiet time before the bundle's index (and vectors) are brought up to date (1 s). */
  indexDelayMilliseconds?: number | undefined;
  onEvent?: ((event: FollowEvent) => void) | undefined;
  onWait?: ((holder: LockHolder) => void) | undefined;
  /** How a dropped export is imported: given by the data folder, which composes the import. */
  importExport?: ImportExport | undefined;
}
