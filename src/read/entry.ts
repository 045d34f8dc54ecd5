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
