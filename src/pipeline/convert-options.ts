/** How far an import has got, for a progress bar. */
export interface ImportProgress {
  /** `push`: a bundle being loaded into a store. */
  phase: 'checksum' | 'convert' | 'finish' | 'push';
  bytesDone: number;
  bytesTotal: number;
  conversations: number;
}

/** What identifies a zipped export file without reading it: its path, size and CRC-32. */
export function fileFingerprint(file: string, size: number, crc32: number): string {
  return `${file}\u0000${size}\u0000${crc32}`;
}

/** Options of {@link convertExports}. */
export interface ConvertOptions {
  /** The bundle folder (created or extended). */
  out: string;
  /** The import time written into the files; defaults to now. */
  importedAt?: Date;
  onProgress?: (progress: ImportProgress) => void;
  /** Conversations files whose checksum is here were imported before and are skipped. */
  skipChecksums?: ReadonlySet<string>;
  /**
   * Checksums of files imported before, by {@link fileFingerprint}: such a file is not read
   * again even to hash it (an unchanged 1 GB re-import then takes a second, not four).
   */
  knownFiles?: ReadonlyMap<string, string>;
  /** Mask secrets (API keys, tokens, bearer headers, URL passwords, private keys) before writing. */
  redact?: boolean;
  /**
   * The bundle is an export for others (`chatgraph convert`), not a data folder's record: its
   * memories with `access.exportable: false` are left out of it (PAM §21.1), and counted.
   */
  exportOnly?: boolean;
  /** Conversations deleted with `chatgraph delete` (chatgraph's ids): not written again. */
  deleted?: ReadonlySet<string>;
  /** Worker threads for conversion (default: one per core but one, when compiled; 0: inline). */
  workers?: number;
  /**
   * Stops the import between two records (each stage checks it): what was written stays
   * written and whole, and the promise rejects with the signal's reason.
   */
  signal?: AbortSignal;
}
