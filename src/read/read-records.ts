import type { Entry } from './entry.js';
import { JsonSplitter } from './json-splitter.js';
import { JsonlSplitter } from './jsonl-splitter.js';
import { depthCutMessage } from './bound-depth.js';
import { ZipCrcError } from './crc-check.js';
import { parseRecord, type RawRecord, type SplitItem } from './record.js';
import { utf8Chunks } from './utf8-chunks.js';
import { readSqliteRecords } from './sqlite-records.js';
import type { SqliteStoreQuery } from './sqlite-query.js';

/** How an entry's records are laid out. */
export type RecordFormat =
  | { kind: 'json'; streamKeys?: readonly string[] }
  | { kind: 'jsonl' }
  /** The whole JSON Lines file is one record (a Claude Code session). */
  | { kind: 'jsonl-file' }
  /** The whole JSON file is one record (a Le Chat conversation, a Takeout activity log). */
  | { kind: 'json-file' }
  /** The whole file is one record of text (CSV, HTML), given to the provider as a string. */
  | { kind: 'text-file' }
  /** A coding agent's SQLite store: one record per session, read by the provider's queries. */
  | { kind: 'sqlite'; store: SqliteStoreQuery }
  /**
   * One record made of several files: the claimed file read whole (as `main` says) and the
   * files `with` names, relative to its folder (`ui_messages.json`, `../.project_root`), read
   * whole as text when the input has them: a Cline task folder, a log and its side files.
   */
  | FileSetFormat;

/** A record made of the claimed file and files beside it (see {@link RecordFormat}). */
export interface FileSetFormat {
  kind: 'file-set';
  main: 'json-file' | 'jsonl-file' | 'text-file';
  with: readonly string[];
}

/** A parsed record, or a problem (as the splitters give them, plus parse failures). */
export type ValueItem =
  | { kind: 'value'; index: number; offset: number; value: unknown; invalidUtf8: boolean }
  | { kind: 'problem'; code: string; message: string; offset: number; index?: number };

/**
 * Streams an entry's records, cut out but not parsed. A stream error (a corrupt zip, a read
 * failure) ends the entry with a problem giving the byte offset reached; the records before it
 * have been yielded.
 */
export async function* readRecords(
  entry: Entry,
  format: RecordFormat,
  onBytes?: (bytes: number) => void,
  sides: readonly SideEntry[] = [],
): AsyncGenerator<SplitItem> {
  if (format.kind === 'sqlite') {
    yield* readSqliteRecords(entry, format.store, onBytes);
    return;
  }
  if (format.kind === 'jsonl-file' || format.kind === 'json-file' || format.kind === 'text-file') {
    yield* readWholeFile(entry, format.kind, onBytes);
    return;
  }
  if (format.kind === 'file-set') {
    yield* readFileSet(entry, format, onBytes, sides);
    return;
  }
  const splitter =
    format.kind === 'jsonl' ? new JsonlSplitter() : new JsonSplitter(format.streamKeys ?? []);
  let bytes = 0;
  let stream;
  try {
    stream = await entry.open();
  } catch (error) {
    yield { kind: 'problem', code: 'unreadable-file', message: describe(error), offset: 0 };
    return;
  }
  try {
    for await (const chunk of utf8Chunks(stream as AsyncIterable<Buffer>)) {
      bytes += chunk.length;
      onBytes?.(chunk.length);
      yield* splitter.push(chunk);
    }
  } catch (error) {
    stream.destroy();
    if (error instanceof ZipCrcError) {
      // Every byte was read; only the check at the end failed: the records stand, reported.
      yield* splitter.end();
      yield crcProblem(error, bytes, 'records');
      return;
    }
    yield* splitter.end().filter((item) => item.kind === 'record' && format.kind === 'json');
    yield {
      kind: 'problem',
      code: 'corrupt-file',
      message: `reading stopped at byte ${bytes}: ${describe(error)}; the records before it were read`,
      offset: bytes,
    };
    return;
  }
  yield* splitter.end();
}

/** A file beside a file-set's claimed file, by the name its format gave it. */
export interface SideEntry {
  name: string;
  entry: Entry;
}

// The claimed file whole, then each side file whole: one record (a side file that cannot be
// read is a problem of its own; the record goes on without it).
async function* readFileSet(
  entry: Entry,
  format: FileSetFormat,
  onBytes: ((bytes: number) => void) | undefined,
  sides: readonly SideEntry[],
): AsyncGenerator<SplitItem> {
  let main: RawRecord | undefined;
  for await (const item of readWholeFile(entry, format.main, onBytes)) {
    if (item.kind === 'problem') yield item;
    else main = item;
  }
  if (!main) return;
  const side: NonNullable<RawRecord['side']> = [];
  for (const { name, entry: file } of sides) {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of utf8Chunks((await file.open()) as AsyncIterable<Buffer>))
        chunks.push(chunk);
      side.push({ name, bytes: Buffer.concat(chunks) });
    } catch (error) {
      yield {
        kind: 'problem',
        code: 'unreadable-file',
        message: `${file.displayPath}, read beside it, could not be read (${describe(error)}); the record is read without it`,
        offset: 0,
      };
    }
  }
  main.side = side;
  yield main;
}

async function* readWholeFile(
  entry: Entry,
  kind: 'jsonl-file' | 'json-file' | 'text-file',
  onBytes?: (bytes: number) => void,
): AsyncGenerator<SplitItem> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of utf8Chunks((await entry.open()) as AsyncIterable<Buffer>)) {
      chunks.push(chunk);
      bytes += chunk.length;
      onBytes?.(chunk.length);
    }
  } catch (error) {
    yield error instanceof ZipCrcError
      ? crcProblem(error, bytes, 'file')
      : {
          kind: 'problem',
          code: 'corrupt-file',
          message: `reading stopped at byte ${bytes}: ${describe(error)}; the lines before it were read`,
          offset: bytes,
        };
  }
  if (bytes === 0) return;
  const record: SplitItem = {
    kind: 'record',
    path: '',
    index: 0,
    offset: 0,
    bytes: Buffer.concat(chunks),
  };
  if (kind === 'jsonl-file') record.lines = true;
  if (kind === 'text-file') record.text = true;
  yield record;
}

/** Streams an entry's records parsed (for the small files: accounts, memories, projects). */
export async function* readValues(entry: Entry, format: RecordFormat): AsyncGenerator<ValueItem> {
  for await (const item of readRecords(entry, format)) {
    if (item.kind === 'problem') {
      yield item;
      continue;
    }
    const parsed = parseRecord(item);
    if (parsed.ok && parsed.depthCuts > 0)
      yield {
        kind: 'problem',
        code: 'nesting-cut',
        message: depthCutMessage(parsed.depthCuts),
        offset: item.offset,
        index: item.index,
      };
    yield parsed.ok
      ? {
          kind: 'value',
          index: item.index,
          offset: item.offset,
          value: parsed.value,
          invalidUtf8: parsed.invalidUtf8,
        }
      : {
          kind: 'problem',
          code: parsed.code,
          message: parsed.message,
          offset: item.offset,
          index: item.index,
        };
  }
}

/** A zip entry read to its end whose CRC-32 does not match: what was read is kept, and said so. */
function crcProblem(error: ZipCrcError, bytes: number, what: 'records' | 'file'): SplitItem {
  return {
    kind: 'problem',
    code: 'zip-crc-mismatch',
    message: `${error.message}; its ${what === 'records' ? 'records were' : 'content was'} read all the same and may hold damaged text (download the export again)`,
    offset: bytes,
  };
}

function describe(error: unknown): string {
  // zlib's "unexpected end of file": the compressed data stops short, as a download cut short
  // leaves a zip's last entry.
  if (error instanceof Error && 'code' in error && error.code === 'Z_BUF_ERROR')
    return `the file ends before its compressed data does (${error.message}): the download looks incomplete, download the export again`;
  return error instanceof Error ? error.message : String(error);
}
