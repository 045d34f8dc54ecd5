import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';

/** Where the reading of an append-only log stopped, and what identifies the bytes before it. */
export interface TailMark {
  /** Bytes read so far (always at the end of a line, or of a settled last line). */
  offset: number;
  /** Lines read so far (for line numbers in messages). */
  lines: number;
  /** The file's inode, so a file replaced under the same name is read again whole. */
  ino: number;
  /** sha256 of the first and last few KB before `offset` (see {@link fingerprintAt}). */
  fingerprint: string;
}

/** One line of the log, parsed or not. */
export type TailLine =
  { line: number; ok: true; value: unknown } | { line: number; ok: false; message: string };

/** What one read of the log found past the mark. */
export interface TailRead {
  /** The start of the file changed (rewritten, truncated, replaced): `lines` holds it all. */
  rewritten: boolean;
  lines: TailLine[];
  /** The bytes now read, to extend a running checksum. */
  bytes: Buffer;
  /** A last line without its newline that does not parse (yet), or may still grow: it waits. */
  waiting: boolean;
  mark: TailMark;
  /** The file's size when read. */
  size: number;
}

/** How much of the start and of the end before the mark the fingerprint covers. */
const FINGERPRINT_SPAN = 4096;

/**
 * Reads what was appended to a JSON Lines log since `mark`: only the new bytes, when the file
 * still starts as it did (same inode, not shorter, same fingerprint); else the whole file
 * again, flagged `rewritten`. A last line without its newline waits, unless `settled` (the
 * caller saw the size stay the same) and it parses: many real logs end that way.
 */
export async function readTail(
  path: string,
  mark: TailMark | undefined,
  settled = false,
): Promise<TailRead> {
  const handle = await open(path, 'r');
  try {
    const info = await handle.stat();
    const size = info.size;
    const continues =
      mark !== undefined &&
      mark.ino === info.ino &&
      size >= mark.offset &&
      (await fingerprintAt(handle, mark.offset)) === mark.fingerprint;
    const from = continues ? mark.offset : 0;
    const firstLine = continues ? mark.lines : 0;
    const bytes = Buffer.alloc(size - from);
    if (bytes.length > 0) await readFully(handle, bytes, from);
    const lastNewline = bytes.lastIndexOf(0x0a);
    let end = lastNewline + 1;
    const rest = bytes.subarray(end);
    let waiting = false;
    if (rest.toString('utf8').trim() !== '') {
      if (settled && parses(rest)) end = bytes.length;
      else waiting = true;
    }
    const consumed = bytes.subarray(0, end);
    const lines = splitLines(consumed, firstLine);
    const offset = from + end;
    return {
      rewritten: !continues && mark !== undefined,
      lines: lines.parsed,
      bytes: consumed,
      waiting,
      size,
      mark: {
        offset,
        lines: lines.count,
        ino: info.ino,
        fingerprint: await fingerprintAt(handle, offset),
      },
    };
  } finally {
    await handle.close();
  }
}

/** sha256 of the first and the last {@link FINGERPRINT_SPAN} bytes before `offset`. */
export async function fingerprintAt(handle: FileHandle, offset: number): Promise<string> {
  const head = Buffer.alloc(Math.min(offset, FINGERPRINT_SPAN));
  const tail = Buffer.alloc(Math.min(offset, FINGERPRINT_SPAN));
  await readFully(handle, head, 0);
  await readFully(handle, tail, offset - tail.length);
  return createHash('sha256').update(String(offset)).update(head).update(tail).digest('hex');
}

async function readFully(handle: FileHandle, buffer: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < buffer.length) {
    const { bytesRead } = await handle.read(buffer, done, buffer.length - done, position + done);
    // The file shrank while it was read: the rest stays zero and fails to parse, so it waits.
    if (bytesRead === 0) return;
    done += bytesRead;
  }
}

function parses(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

function splitLines(bytes: Buffer, firstLine: number): { parsed: TailLine[]; count: number } {
  const parsed: TailLine[] = [];
  let count = firstLine;
  let start = 0;
  while (start < bytes.length) {
    let newline = bytes.indexOf(0x0a, start);
    if (newline === -1) newline = bytes.length;
    count++;
    const text = bytes.toString('utf8', start, newline).trim();
    start = newline + 1;
    if (text === '') continue;
    try {
      parsed.push({ line: count, ok: true, value: JSON.parse(text) as unknown });
    } catch (error) {
      parsed.push({
        line: count,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { parsed, count };
}
