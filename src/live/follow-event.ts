import type { FollowHow } from './file-claims.js';
import type { WatchMode } from './folder-watch.js';

/** One agent's store followed, and how (see `FollowHow`). */
export interface FollowedStore {
  /** The agent's source id (`codex`) and product name (`Codex CLI`). */
  source: string;
  product: string;
  path: string;
  /** The environment variable that named it, when one did. */
  env?: string | undefined;
  /** How its files are followed (by their format; the agent's own way when none is there yet). */
  how: FollowHow[];
  /** Its session files (a SQLite store: its stores). */
  files: number;
}

/** A store of an agent found but not readable, and why. */
export interface UnreadableStore {
  product: string;
  path: string;
  reason: string;
}

/** What a follower tells as it goes (the `watch` command's status line is made of these). */
export type FollowEvent =
  /** The first pass is done: what is followed, and how. */
  | {
      kind: 'ready';
      folders: string[];
      logs: number;
      exports: number;
      mode: WatchMode;
      /** The coding agents' stores followed (`watch` with no folder), each with how. */
      agents?: FollowedStore[];
      /** Their stores found that cannot be read. */
      unreadable?: UnreadableStore[];
    }
  /** A session log's new lines were imported. */
  | {
      kind: 'imported';
      file: string;
      /** Lines read this time (all of them when the log was read whole). */
      lines: number;
      conversations: { id: string; messages: number }[];
      /** Conversations written (the others were unchanged). */
      written: number;
      /** Conversations deleted with `chatgraph delete`, left out. */
      leftDeleted: number;
      /** Conversations another log holds a more recent copy of (same session id), left out. */
      heldElsewhere?: number;
      /** Secrets masked in the lines read (`redact`). */
      masked?: number;
      /** A document read again whole (rewritten in place by its agent), not lines. */
      whole?: boolean;
      /** A SQLite store: the sessions read again (their rows changed). */
      sessions?: number;
    }
  /** Sessions its agent removed: what was imported of them stays, kept only here now. */
  | { kind: 'removed'; file: string; sessions: number; conversations: string[] }
  /** A log's last line is cut off and stopped growing: it waits for the rest of its line. */
  | { kind: 'waiting'; file: string }
  /** A log whose start changed (rewritten, truncated, replaced): read again whole. */
  | { kind: 'rewritten'; file: string }
  /** An export dropped into a followed folder was imported. */
  | { kind: 'export'; file: string; conversations: number; written: number; skipped: boolean }
  /** A followed file was deleted (what was imported from it stays). */
  | { kind: 'gone'; file: string }
  /** New messages were embedded (`embed`). */
  | { kind: 'embedded'; chunks: number }
  /** Something could not be read or imported; following goes on. */
  | { kind: 'problem'; file: string | undefined; message: string };
