import type { WatchMode } from './folder-watch.js';

/** What a follower tells as it goes (the `watch` command's status line is made of these). */
export type FollowEvent =
  /** The first pass is done: what is followed, and how. */
  | { kind: 'ready'; folders: string[]; logs: number; exports: number; mode: WatchMode }
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
    }
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
