import type { Readable } from 'node:stream';

/** One file of an export: a member of a zip, a file in a folder, or a single file. */
export interface Entry {
  /** Path inside its container, with `/` separators (`conversations.json`, `dalle/x.webp`). */
  readonly path: string;
  /** Where it is, for messages: `export.zip!conversations.json` or a file path. */
  readonly displayPath: string;
  /** Uncompressed size in bytes, when known. */
  readonly size: number | undefined;
  /** The CRC-32 a zip records for the entry (lets a re-import recognise an unchanged file unread). */
  readonly crc32?: number;
  /** Compressed size in bytes, for a zip member whose directory records it. */
  readonly compressedSize?: number;
  /** Last modification time, when the container records it. */
  readonly modified: Date | undefined;
  /** The file on disk that holds exactly these bytes, when there is one (no need to copy it). */
  readonly localFile?: string;
  /** A fresh stream of its (decompressed) bytes. */
  open(): Promise<Readable>;
}

/** The last path segment of an entry. */
export function baseName(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash === -1 ? path : path.slice(slash + 1);
}

/**
 * The path of a file beside an entry (`ui_messages.json`, `../.project_root`), inside the same
 * container, or undefined when it would climb out of it.
 */
export function besidePath(path: string, relative: string): string | undefined {
  const parts = path.split('/').slice(0, -1);
  for (const step of relative.split('/')) {
    if (step === '' || step === '.') continue;
    if (step !== '..') parts.push(step);
    else if (parts.pop() === undefined) return undefined;
  }
  return parts.join('/');
}
