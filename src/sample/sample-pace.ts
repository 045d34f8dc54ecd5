import { createHash } from 'node:crypto';
import type { SampleReply } from './conversations/sample-chat.js';

/** Stable UUIDs for one written conversation: the n-th id of a slug is always the same. */
export function uuidMaker(slug: string): () => string {
  let n = 0;
  return () => {
    const hex = createHash('sha256').update(`${slug}:${n++}`).digest('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  };
}

/**
 * The clock of a written conversation, advanced as a person and an assistant would take: the
 * user types (a few seconds per line), the answer streams, the user reads before the next turn.
 */
export class SamplePace {
  /** Milliseconds since the epoch. */
  now: number;

  constructor(start: string) {
    this.now = Date.parse(start);
    if (Number.isNaN(this.now)) throw new Error(`not a time: ${start}`);
  }

  /** The user writes `text`. */
  typing(text: string): number {
    this.now += 4_000 + text.length * 180;
    return this.now;
  }

  /** The assistant writes `text`. */
  writing(text: string): number {
    this.now += 1_500 + text.length * 12;
    return this.now;
  }

  /** A tool runs or the assistant thinks for `seconds`. */
  pause(seconds: number): number {
    this.now += seconds * 1000;
    return this.now;
  }

  /** The user reads `text`, or comes back `minutes` later. */
  reading(text: string, minutes?: number): void {
    this.now += minutes !== undefined ? minutes * 60_000 : 8_000 + text.length * 50;
  }

  /** The time as ISO-8601 with milliseconds. */
  iso(at = this.now): string {
    return new Date(at).toISOString();
  }
}

/** The reply as an object, whether written as text alone or with steps. */
export function replyOf(reply: SampleReply | string): SampleReply {
  return typeof reply === 'string' ? { text: reply } : reply;
}
