import { existsSync } from 'node:fs';
import { waitingMessage, type ImportProgress, type LockHolder } from '../index.js';
import type { CliIo } from './cli-io.js';
import type { ProgressBar } from './progress-bar.js';
import { UsageError } from './usage-error.js';

function importTime(): Date | undefined {
  // SOURCE_DATE_EPOCH makes the written import times reproducible (as in reproducible builds).
  const epoch = process.env.SOURCE_DATE_EPOCH;
  return epoch !== undefined && /^\d+$/.test(epoch) ? new Date(Number(epoch) * 1000) : undefined;
}

/** What `convert` and `import` share: redaction, the import time, and the progress bar. */
export function runOptions(
  options: { json?: boolean; quiet?: boolean; redact?: boolean },
  bar: ProgressBar,
): { redact: boolean; importedAt?: Date; onProgress?: (progress: ImportProgress) => void } {
  const importedAt = importTime();
  return {
    redact: options.redact === true,
    ...(importedAt ? { importedAt } : {}),
    ...(options.quiet || options.json ? {} : progressOf(bar)),
  };
}

/** Progress reported on the bar. */
export function progressOf(bar: ProgressBar): {
  onProgress: (progress: ImportProgress) => void;
} {
  return {
    onProgress: (progress: ImportProgress) => {
      bar.update(progress);
    },
  };
}

/** Says, on stderr, that this writer waits for another (the folder's `wait` option: DataFolderOptions). */
export function onWaitOf(io: CliIo): (holder: LockHolder) => void {
  return (holder) => {
    io.err(`chatgraph: ${waitingMessage(holder)}`);
  };
}

/** Every input exists, or a usage error naming the first that does not. */
export function checkInputs(inputs: string[]): void {
  for (const input of inputs) {
    if (!existsSync(input))
      throw new UsageError(
        `"${input}" does not exist: give the path of an export (a .zip, its unpacked folder, or a conversations file)`,
      );
  }
}
