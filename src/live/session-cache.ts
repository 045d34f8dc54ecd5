import { createHash, type Hash } from 'node:crypto';
import type { SessionConversion } from './convert-session.js';
import type { TailMark } from './session-tail.js';

/** A followed log as read so far: its conversion, where reading stopped, its running checksum. */
export interface LoadedSession {
  /** Lines read and not converted yet (the log is not recognised yet, or nothing is written). */
  unconverted: unknown[];
  /** Lines read so far. */
  lines: number;
  /** The conversion of the lines converted so far, once the variant is known. */
  conversion: SessionConversion | undefined;
  mark: TailMark | undefined;
  hash: Hash;
  /** Its provider's variant (`session`, `subagent`, `rollout`, …) once it is converted. */
  variant: string | undefined;
  /** A file set's side files as last read (their text by name). */
  side: Record<string, string> | undefined;
}

/**
 * The logs held in memory, the most recently written last: a session being written to is
 * converted from memory on each append (never read again from the start); one not touched for
 * a while is dropped, and read whole the next time it grows.
 */
export class SessionCache {
  private readonly sessions = new Map<string, LoadedSession>();

  constructor(private readonly capacity = 32) {}

  get(path: string): LoadedSession | undefined {
    const session = this.sessions.get(path);
    if (session) {
      this.sessions.delete(path);
      this.sessions.set(path, session);
    }
    return session;
  }

  /** A new empty session for `path` (replacing any), kept in the cache. */
  start(path: string): LoadedSession {
    const session: LoadedSession = {
      unconverted: [],
      lines: 0,
      conversion: undefined,
      mark: undefined,
      hash: createHash('sha256'),
      variant: undefined,
      side: undefined,
    };
    this.sessions.delete(path);
    this.sessions.set(path, session);
    while (this.sessions.size > this.capacity) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    return session;
  }

  delete(path: string): void {
    this.sessions.delete(path);
  }
}
