/** One thing a validation found: where (file and JSON path), which rule, and what. */
export interface Finding {
  level: 'error' | 'warning';
  file: string;
  /** A JSONPath into the file (`$.memories[2].content_hash`); `$` for the file as a whole. */
  path: string;
  /** The rule: `schema`, or a deep rule's name as the official validator names it. */
  rule: string;
  message: string;
}

/** Collects findings for one file. */
export class FileFindings {
  constructor(
    readonly file: string,
    private readonly into: Finding[],
  ) {}

  error(path: string, rule: string, message: string): void {
    this.into.push({ level: 'error', file: this.file, path, rule, message });
  }

  warning(path: string, rule: string, message: string): void {
    this.into.push({ level: 'warning', file: this.file, path, rule, message });
  }
}
