import { boundDepth } from './bound-depth.js';

/** One record's bytes, cut out of a JSON or JSONL file but not yet parsed. */
export interface RawRecord {
  kind: 'record';
  /** `''` for a top-level array's elements or JSONL lines, the key for a wrapped array's, `'$'` for a whole document. */
  path: string;
  index: number;
  /** Byte offset of the record in the (decompressed) file. */
  offset: number;
  bytes: Buffer;
  /** A JSONL last line without its newline: it may be cut short. */
  unterminated?: boolean;
  /** The whole file is one record made of JSON lines (a Claude Code session). */
  lines?: boolean;
  /** The whole file is one record of plain text (CSV, HTML): its value is the string. */
  text?: boolean;
  /**
   * The record is a file set (`FileSetFormat`): these bytes are the claimed file's, and `side`
   * holds the files beside it that the input has, each by the name the format gave.
   */
  side?: { name: string; bytes: Uint8Array }[];
}

/**
 * A file set's value: the claimed file parsed (as a JSON value, a `LinesValue` or a string, as
 * the format's `main` says) and the text of each file beside it that the input has.
 */
export interface FileSetValue {
  main: unknown;
  side: Record<string, string>;
}

/** A whole JSON Lines file as one record: the lines that parsed, and those that did not. */
export interface LinesValue {
  entries: unknown[];
  /** Each entry's line number in the file (1-based, blank lines counted). */
  lineNumbers?: number[];
  badLines: { line: number; message: string }[];
  /** The last line had no newline and did not parse: a file still being written. */
  cutLastLine: boolean;
}

/** A problem found while cutting a file into records. */
export interface SplitProblem {
  kind: 'problem';
  code: string;
  message: string;
  offset: number;
  index?: number;
  /** The record it is about, when the reader knows it better than by index (a SQLite row's key). */
  record?: string;
}

/** What the splitters yield. */
export type SplitItem = RawRecord | SplitProblem;

/** A parsed record, or why it could not be parsed. */
export type ParsedRecord =
  | {
      ok: true;
      value: unknown;
      invalidUtf8: boolean;
      /** Values cut because they nested deeper than the bound (see `boundDepth`). */
      depthCuts: number;
    }
  | { ok: false; code: string; message: string };

const REPLACEMENT = Buffer.from([0xef, 0xbf, 0xbd]);

/** Parses a record's bytes; invalid UTF-8 becomes U+FFFD and is flagged, never thrown. */
export function parseRecord(record: RawRecord): ParsedRecord {
  if (record.side !== undefined) return parseFileSet(record, record.side);
  const text = record.bytes.toString('utf8');
  if (record.lines) {
    const value = parseLines(text);
    return {
      ok: true,
      value,
      invalidUtf8: hasInvalidUtf8(text, record.bytes),
      depthCuts: boundDepth(value),
    };
  }
  if (record.text) {
    return {
      ok: true,
      value: text.replace(/^\uFEFF/, ''),
      invalidUtf8: hasInvalidUtf8(text, record.bytes),
      depthCuts: 0,
    };
  }
  const invalidUtf8 = text.includes('\ufffd') && !record.bytes.includes(REPLACEMENT);
  try {
    const value = JSON.parse(text) as unknown;
    return { ok: true, value, invalidUtf8, depthCuts: boundDepth(value) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return record.unterminated
      ? {
          ok: false,
          code: 'truncated-file',
          message: `the last line (record ${record.index}) is incomplete, as in a file still being written or cut short`,
        }
      : {
          ok: false,
          code: 'malformed-record',
          message: `record ${record.index} is not valid JSON (${reason})`,
        };
  }
}

// The claimed file parsed as its own kind; the side files as text (their provider reads them).
function parseFileSet(
  record: RawRecord,
  side: readonly { name: string; bytes: Uint8Array }[],
): ParsedRecord {
  const main: RawRecord = { ...record };
  delete main.side;
  const parsed = parseRecord(main);
  if (!parsed.ok) return parsed;
  const texts: Record<string, string> = {};
  let invalidUtf8 = parsed.invalidUtf8;
  for (const file of side) {
    const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
    const text = bytes.toString('utf8');
    invalidUtf8 ||= hasInvalidUtf8(text, bytes);
    texts[file.name] = text.replace(/^\uFEFF/, '');
  }
  const value: FileSetValue = { main: parsed.value, side: texts };
  return { ok: true, value, invalidUtf8, depthCuts: parsed.depthCuts };
}

function hasInvalidUtf8(text: string, bytes: Buffer): boolean {
  return text.includes('\ufffd') && !bytes.includes(REPLACEMENT);
}

function parseLines(text: string): LinesValue {
  const value: LinesValue = { entries: [], lineNumbers: [], badLines: [], cutLastLine: false };
  const lines = text.split('\n');
  const terminated = text.endsWith('\n');
  lines.forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === '') return;
    try {
      value.entries.push(JSON.parse(trimmed) as unknown);
      value.lineNumbers?.push(i + 1);
    } catch (error) {
      if (i === lines.length - 1 && !terminated) value.cutLastLine = true;
      else
        value.badLines.push({
          line: i + 1,
          message: error instanceof Error ? error.message : String(error),
        });
    }
  });
  return value;
}
