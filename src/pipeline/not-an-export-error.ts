import type { ImportReport } from './import-report.js';

/** The input holds no export chatgraph can read; the message says what was expected. */
export class NotAnExportError extends Error {
  override readonly name = 'NotAnExportError';
  /** The import's report with the refusal in it (`--json` prints it), when an import refused. */
  report?: ImportReport;
}
