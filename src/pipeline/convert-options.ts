import type { GraphBatch } from '../graph/graph-batch.js';
import type { Conversation } from '../model/pam.js';
import type { Provider } from '../providers/provider.js';

/** How far an import has got, for a progress bar. */
export interface ImportProgress {
  /** `push`: a bundle being loaded into a store. */
  phase: 'checksum' | 'convert' | 'finish' | 'push';
  bytesDone: number;
  bytesTotal: number;
  conversations: number;
}

/** Where a conversation came from, for sinks. */
export interface SinkContext {
  provider: Provider;
  /** The hash of its content, import metadata aside (equal: nothing changed). */
  contentHash: string;
  /** The export file it came from, and that file's checksum. */
  file: string;
  checksum: string;
  /** Its graph batch, when the import asked for one (see `ConvertOptions.graph`). */
  batch: GraphBatch | undefined;
  /** The conversation itself (parsed from `text` on first use). */
  conversation(): Conversation;
}

/** Receives each conversation as it is written to the bundle (the graph store is one). */
export interface ConversationSink {
  write(context: SinkContext): Promise<void>;
}

/** An export file whose conversations have all been read. */
export interface ImportedFile {
  file: string;
  checksum: string;
  provider: string;
  /** The file's size and CRC-32 as its zip records them, when it is in a zip. */
  size?: number;
  crc32?: number;
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
  sinks?: readonly ConversationSink[];
  /** Project each conversation into the graph on the worker, for the sinks (`SinkContext.batch`). */
  graph?: { deep: boolean };
  /** Conversations files whose checksum is here were imported before and are skipped. */
  skipChecksums?: ReadonlySet<string>;
  /**
   * Checksums of files imported before, by {@link fileFingerprint}: such a file is not read
   * again even to hash it (an unchanged 1 GB re-import then takes a second, not four).
   */
  knownFiles?: ReadonlyMap<string, string>;
  /** Called when every conversation of a file has been written (not for skipped files). */
  onFileImported?: (file: ImportedFile) => Promise<void>;
  /** Called for a file skipped as imported before. */
  onFileSkipped?: (file: ImportedFile) => Promise<void>;
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
