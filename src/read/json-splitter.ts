/**
 * Splits a JSON document into records without parsing it whole: the elements of a top-level
 * array, or of an array under one of `streamKeys` in a top-level object, are parsed one at a
 * time; any other top-level object is one record. Records are cut out, not parsed (see
 * `parseRecord`), so parsing can happen elsewhere. Memory stays bounded by the largest record.
 */

import type { SplitItem } from './record.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;

type Mode = 'start' | 'array' | 'object' | 'done';

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** A push parser: feed chunks with `push`, then call `end`; each returns the items completed. */
export class JsonSplitter {
  private readonly streamKeys: ReadonlySet<string>;
  private mode: Mode = 'start';
  private offset = 0;
  private depth = 0;
  /** The depth at which records live: 1 in a top-level array, 2 in a wrapped one. */
  private recordDepth = 1;
  private inString = false;
  private carryBackslashes = 0;
  private firstChunk = true;

  private recording = false;
  private recordStart = 0;
  private parts: Buffer[] = [];
  private path = '';
  private index = 0;

  // A top-level object: either one record (kept whole) or a wrapper of `streamKeys` arrays.
  private expectKey = true;
  private valueNext = false;
  private readingKey = false;
  private keyParts: Buffer[] = [];
  private key = '';
  private wrapper = false;
  private wholeParts: Buffer[] = [];

  constructor(streamKeys: readonly string[] = []) {
    this.streamKeys = new Set(streamKeys);
  }

  // Where, in the chunk being pushed, the record and the key being read began (-1: before it).
  private segment = -1;
  private keySegment = -1;

  /** Feeds the next chunk. */
  push(chunk: Buffer): SplitItem[] {
    const items: SplitItem[] = [];
    let i = 0;
    if (this.firstChunk) {
      this.firstChunk = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    }
    const wholeFrom = i;
    const length = chunk.length;
    this.segment = this.recording ? i : -1;
    this.keySegment = this.readingKey ? i : -1;
    while (i < length && this.mode !== 'done') {
      if (this.inString) {
        i = this.skipString(chunk, i);
        continue;
      }
      const byte = chunk[i] as number;
      // Most bytes outside strings are inside records: the first test keeps them on a short path.
      if (this.recording) this.recordByte(chunk, byte, i, items);
      else if (!isSpace(byte)) this.outsideRecord(byte, i, items);
      i++;
    }
    if (this.recording && this.segment >= 0 && this.segment < length)
      this.parts.push(chunk.subarray(this.segment));
    if (this.readingKey && this.keySegment >= 0)
      this.keyParts.push(chunk.subarray(this.keySegment));
    if (!this.wrapper && (this.mode === 'object' || this.pendingWhole)) {
      this.wholeParts.push(chunk.subarray(wholeFrom, i));
    }
    this.offset += length;
    return items;
  }

  /**
   * Inside a string: jumps to the next quote not escaped by an odd run of backslashes (a run
   * may start in the previous chunk), returns where to go on.
   */
  private skipString(chunk: Buffer, from: number): number {
    const quote = chunk.indexOf(QUOTE, from);
    if (quote === -1) {
      this.carryBackslashes = trailingBackslashes(chunk, from, chunk.length, this.carryBackslashes);
      return chunk.length;
    }
    let slashes = 0;
    let k = quote - 1;
    while (k >= from && chunk[k] === BACKSLASH) {
      slashes++;
      k--;
    }
    if (k < from) slashes += this.carryBackslashes;
    this.carryBackslashes = 0;
    const next = quote + 1;
    if (slashes % 2 === 1) return next;
    this.inString = false;
    if (this.readingKey) {
      this.keyParts.push(chunk.subarray(this.keySegment, next));
      this.key = parseKey(this.keyParts);
      this.keyParts = [];
      this.readingKey = false;
      this.keySegment = -1;
    }
    return next;
  }

  /** One byte outside strings, whitespace and records, at `i` in the chunk. */
  private outsideRecord(byte: number, i: number, items: SplitItem[]): void {
    if (this.mode === 'start') this.openDocument(byte, i, items);
    // A top-level object's own members (keys, colons), outside any wrapped array.
    else if (!(this.mode === 'object' && this.depth === 1 && this.topLevelMember(byte, i, items)))
      this.betweenRecords(byte, i);
  }

  private openDocument(byte: number, i: number, items: SplitItem[]): void {
    if (byte === OPEN_BRACKET) {
      this.mode = 'array';
      this.valueNext = true;
    } else if (byte === OPEN_BRACE) {
      this.mode = 'object';
      this.expectKey = true;
    } else {
      items.push(
        this.problem(
          'not-json-container',
          'the file does not start with a JSON array or object',
          i,
        ),
      );
      this.mode = 'done';
      return;
    }
    this.depth = 1;
  }

  /** A key, a colon or the start of a streamed array among a top-level object's members; false for a value. */
  private topLevelMember(byte: number, i: number, items: SplitItem[]): boolean {
    if (this.expectKey) {
      if (byte === QUOTE) {
        this.inString = true;
        this.readingKey = true;
        this.keySegment = i;
        this.expectKey = false;
      } else if (byte === CLOSE_BRACE) {
        this.closeTopLevel();
      } else if (byte !== COMMA) {
        items.push(
          this.problem(
            'malformed-json',
            'the JSON structure is broken here; nothing after it can be read',
            i,
          ),
        );
        this.mode = 'done';
      }
      return true;
    }
    if (byte === COLON) {
      this.valueNext = true;
      return true;
    }
    if (this.valueNext && byte === OPEN_BRACKET && this.streamKeys.has(this.key)) {
      // `{"conversations": [...]}`: stream this array's elements.
      this.wrapper = true;
      this.wholeParts = [];
      this.path = this.key;
      this.index = 0;
      this.depth = 2;
      this.recordDepth = 2;
      return true;
    }
    return false;
  }

  /** A structural byte inside a record: nesting, and the comma or bracket that ends the record. */
  private recordByte(chunk: Buffer, byte: number, i: number, items: SplitItem[]): void {
    if (byte === QUOTE) {
      this.inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      this.depth++;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (this.depth === this.recordDepth) {
        // A primitive record ends at its container's closing bracket.
        this.cutRecord(chunk, i, items);
        this.closeContainer(byte);
      } else {
        this.depth--;
        if (this.depth === this.recordDepth) this.cutRecord(chunk, i + 1, items);
      }
    } else if (byte === COMMA && this.depth === this.recordDepth) {
      this.cutRecord(chunk, i, items);
      this.valueNext = true;
      if (this.mode === 'object' && this.depth === 1) this.expectKey = true;
    }
  }

  private cutRecord(chunk: Buffer, end: number, items: SplitItem[]): void {
    this.parts.push(chunk.subarray(this.segment, end));
    this.finishRecord(items);
    this.segment = -1;
  }

  private betweenRecords(byte: number, i: number): void {
    if (byte === COMMA) {
      this.valueNext = true;
      if (this.mode === 'object' && this.depth === 1) this.expectKey = true;
      return;
    }
    if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
      this.closeContainer(byte);
      return;
    }
    if (this.mode === 'object' && this.depth === 1) {
      // A member of a plain object or of a wrapper outside its streamed arrays: skip its value
      // by recording it without emitting (its bytes are in `wholeParts` when they matter).
      this.skipValueStart(byte);
      return;
    }
    this.recording = true;
    this.recordStart = this.offset + i;
    this.parts = [];
    this.segment = i;
    this.valueNext = false;
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth++;
    else if (byte === QUOTE) this.inString = true;
  }

  // Values of a plain object's members are walked with the same depth counting, as a record
  // that is never emitted.
  private skipValueStart(byte: number): void {
    this.valueNext = false;
    this.recording = true;
    this.recordStart = this.offset;
    this.parts = [];
    this.discard = true;
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth++;
    else if (byte === QUOTE) this.inString = true;
  }

  private discard = false;

  private finishRecord(items: SplitItem[]): void {
    this.recording = false;
    const parts = this.parts;
    this.parts = [];
    if (this.discard) {
      this.discard = false;
      return;
    }
    const buffer = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    items.push(rawRecord(buffer, this.path, this.index++, this.recordStart));
  }

  private closeContainer(byte: number): void {
    this.depth--;
    if (this.mode === 'object' && this.recordDepth === 2 && this.depth === 1) {
      // The wrapped array ended: back among the wrapper's members.
      this.recordDepth = 1;
      this.expectKey = false;
      return;
    }
    if (this.depth <= 0) {
      if (this.mode === 'object' && byte === CLOSE_BRACE) this.closeTopLevel();
      else this.mode = 'done';
    }
  }

  private closeTopLevel(): void {
    this.depth = 0;
    this.mode = 'done';
    this.pendingWhole = !this.wrapper;
  }

  private pendingWhole = false;

  private problem(code: string, message: string, i: number): SplitItem {
    return { kind: 'problem', code, message, offset: this.offset + i };
  }

  /** Call after the last chunk: emits a whole-object record, or reports a cut-off document. */
  end(): SplitItem[] {
    if (this.pendingWhole) {
      const whole = Buffer.concat(this.wholeParts);
      this.wholeParts = [];
      return [rawRecord(whole, '$', 0, 0)];
    }
    if (this.mode === 'start') {
      return [
        { kind: 'problem', code: 'empty-file', message: 'the file is empty', offset: this.offset },
      ];
    }
    if (this.mode === 'done') return [];
    const at = this.recording && !this.discard ? this.recordStart : this.offset;
    return [
      {
        kind: 'problem',
        code: 'truncated-file',
        message: `the file ends in the middle of the JSON at byte ${this.offset}; what follows byte ${at} is lost`,
        offset: at,
        ...(this.recording && !this.discard ? { index: this.index } : {}),
      },
    ];
  }
}

function trailingBackslashes(chunk: Buffer, from: number, to: number, carry: number): number {
  let count = 0;
  let k = to - 1;
  while (k >= from && chunk[k] === BACKSLASH) {
    count++;
    k--;
  }
  return k < from ? carry + count : count;
}

function parseKey(parts: Buffer[]): string {
  try {
    const key: unknown = JSON.parse(Buffer.concat(parts).toString('utf8'));
    return typeof key === 'string' ? key : '';
  } catch {
    return '';
  }
}

function rawRecord(bytes: Buffer, path: string, index: number, offset: number): SplitItem {
  return { kind: 'record', path, index, offset, bytes };
}
