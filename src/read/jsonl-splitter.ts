import type { SplitItem } from './record.js';

const NEWLINE = 0x0a;

/** Splits JSON Lines into records, one line at a time (blank lines are passed over). */
export class JsonlSplitter {
  private carry: Buffer[] = [];
  private offset = 0;
  private lineStart = 0;
  private index = 0;

  /** Feeds the next chunk. */
  push(chunk: Buffer): SplitItem[] {
    const items: SplitItem[] = [];
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(NEWLINE, from);
      if (newline === -1) break;
      const piece = chunk.subarray(from, newline);
      const bytes = this.carry.length > 0 ? Buffer.concat([...this.carry, piece]) : piece;
      this.carry = [];
      this.emit(bytes, items, false);
      from = newline + 1;
      this.lineStart = this.offset + from;
    }
    if (from < chunk.length) this.carry.push(chunk.subarray(from));
    this.offset += chunk.length;
    return items;
  }

  /** Call after the last chunk: a last line without its newline is a record that may be cut short. */
  end(): SplitItem[] {
    const items: SplitItem[] = [];
    if (this.carry.length > 0) this.emit(Buffer.concat(this.carry), items, true);
    this.carry = [];
    return items;
  }

  private emit(bytes: Buffer, items: SplitItem[], last: boolean): void {
    let start = 0;
    let end = bytes.length;
    while (start < end && isSpace(bytes[start] as number)) start++;
    while (end > start && isSpace(bytes[end - 1] as number)) end--;
    if (start === end) return;
    const record: SplitItem = {
      kind: 'record',
      path: '',
      index: this.index++,
      offset: this.lineStart + start,
      bytes: bytes.subarray(start, end),
    };
    if (last) record.unterminated = true;
    items.push(record);
  }
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0d || byte === 0x09 || byte === 0x0a;
}
