import type { JsonItem } from './json-splitter.js';

const NEWLINE = 0x0a;
const REPLACEMENT = Buffer.from([0xef, 0xbf, 0xbd]);

/** Splits JSON Lines into records, one line at a time; a bad line is a problem, not a stop. */
export class JsonlSplitter {
  private carry: Buffer[] = [];
  private offset = 0;
  private lineStart = 0;
  private line = 0;
  private index = 0;

  /** Feeds the next chunk. */
  push(chunk: Buffer): JsonItem[] {
    const items: JsonItem[] = [];
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

  /** Call after the last chunk: a last line without its newline is read if it is whole. */
  end(): JsonItem[] {
    const items: JsonItem[] = [];
    if (this.carry.length > 0) this.emit(Buffer.concat(this.carry), items, true);
    this.carry = [];
    return items;
  }

  private emit(bytes: Buffer, items: JsonItem[], last: boolean): void {
    this.line++;
    const text = bytes.toString('utf8').trim();
    if (text === '') return;
    try {
      const value: unknown = JSON.parse(text);
      const invalidUtf8 = text.includes('\ufffd') && !bytes.includes(REPLACEMENT);
      items.push({ kind: 'value', path: '', index: this.index++, offset: this.lineStart, value, invalidUtf8 });
    } catch (error) {
      items.push({
        kind: 'problem',
        code: last ? 'truncated-file' : 'malformed-record',
        message: last
          ? `the last line (line ${this.line}) is incomplete, as in a file still being written or cut short`
          : `line ${this.line} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
        offset: this.lineStart,
        index: this.line,
      });
    }
  }
}
