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
    let segment = this.recording ? i : -1;
    let keySegment = this.readingKey ? i : -1;
    while (i < length && this.mode !== 'done') {
      if (this.inString) {
        const quote = chunk.indexOf(QUOTE, i);
        if (quote === -1) {
          this.carryBackslashes = trailingBackslashes(chunk, i, length, this.carryBackslashes);
          i = length;
          break;
        }
        let slashes = 0;
        let k = quote - 1;
        while (k >= i && chunk[k] === BACKSLASH) {
          slashes++;
          k--;
        }
        if (k < i) slashes += this.carryBackslashes;
        this.carryBackslashes = 0;
        i = quote + 1;
        if (slashes % 2 === 1) continue;
        this.inString = false;
        if (this.readingKey) {
          this.keyParts.push(chunk.subarray(keySegment, i));
          this.key = parseKey(this.keyParts);
          this.keyParts = [];
          this.readingKey = false;
          keySegment = -1;
        }
        continue;
      }
      const byte = chunk[i] as number;
      if (isSpace(byte)) {
        i++;
        continue;
      }
      if (this.mode === 'start') {
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
          break;
        }
        this.depth = 1;
        i++;
        continue;
      }
      const atRecordLevel = this.depth === this.recordDepth;
      // A top-level object's own members (keys, colons), outside any wrapped array.
      if (this.mode === 'object' && this.depth === 1 && !this.recording) {
        if (this.expectKey) {
          if (byte === QUOTE) {
            this.inString = true;
            this.readingKey = true;
            keySegment = i;
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
          i++;
          continue;
        }
        if (byte === COLON) {
          this.valueNext = true;
          i++;
          continue;
        }
        if (this.valueNext && byte === OPEN_BRACKET && this.streamKeys.has(this.key)) {
          // `{"conversations": [...]}`: stream this array's elements.
          this.wrapper = true;
          this.wholeParts = [];
          this.path = this.key;
          this.index = 0;
          this.depth = 2;
          this.recordDepth = 2;
          i++;
          continue;
        }
      }
      if (this.recording) {
        if (byte === QUOTE) {
          this.inString = true;
        } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
          this.depth++;
        } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
          if (atRecordLevel) {
            // A primitive record ends at its container's closing bracket.
            this.parts.push(chunk.subarray(segment, i));
            this.finishRecord(items);
            segment = -1;
            this.closeContainer(byte);
          } else {
            this.depth--;
            if (this.depth === this.recordDepth) {
              this.parts.push(chunk.subarray(segment, i + 1));
              this.finishRecord(items);
              segment = -1;
            }
          }
        } else if (byte === COMMA && atRecordLevel) {
          this.parts.push(chunk.subarray(segment, i));
          this.finishRecord(items);
          segment = -1;
          this.valueNext = true;
          if (this.mode === 'object' && this.depth === 1) this.expectKey = true;
        }
        i++;
        continue;
      }
      // Between records.
      if (byte === COMMA) {
        this.valueNext = true;
        if (this.mode === 'object' && this.depth === 1) this.expectKey = true;
        i++;
        continue;
      }
      if (byte === CLOSE_BRACKET || byte === CLOSE_BRACE) {
        this.closeContainer(byte);
        i++;
        continue;
      }
      if (this.mode === 'object' && this.depth === 1) {
        // A member of a plain object or of a wrapper outside its streamed arrays: skip its value
        // by recording it without emitting (its bytes are in `wholeParts` when they matter).
        this.skipValueStart(byte);
        i++;
        continue;
      }
      this.recording = true;
      this.recordStart = this.offset + i;
      this.parts = [];
      segment = i;
      this.valueNext = false;
      if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.depth++;
      else if (byte === QUOTE) this.inString = true;
      i++;
    }
    if (this.recording && segment >= 0 && segment < length)
      this.parts.push(chunk.subarray(segment));
    if (this.readingKey && keySegment >= 0) this.keyParts.push(chunk.subarray(keySegment));
    if (!this.wrapper && (this.mode === 'object' || this.pendingWhole)) {
      this.wholeParts.push(chunk.subarray(wholeFrom, i));
    }
    this.offset += length;
    return items;
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
