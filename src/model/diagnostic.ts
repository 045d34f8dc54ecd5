/** A problem found while importing, carried as data beside the result (never thrown, never printed). */
export interface Diagnostic {
  level: 'error' | 'warning' | 'info';
  /** A stable kebab-case code, used to group problems in the report. */
  code: string;
  message: string;
  /** The file (inside its archive, as `export.zip!conversations.json`) the problem is in. */
  file?: string;
  /** The record: an array index, a line number or a platform id. */
  record?: string;
  /** Byte offset in the (decompressed) file, where known. */
  offset?: number;
}

/** Receives diagnostics as they are found. */
export type DiagnosticSink = (diagnostic: Diagnostic) => void;
