import type { ImportProgress } from '../index.js';
import { thousands } from './plural.js';

/** Formats a byte count for people. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit] ?? 'B'}`;
}

/** A one-line progress bar on a terminal's stderr; silent when stderr is not a terminal. */
export class ProgressBar {
  private last = 0;
  private shown = false;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  /** Whether anything will be drawn. */
  get active(): boolean {
    return this.stream.isTTY;
  }

  /** Redraws (at most ten times a second, and always at the end). */
  update(progress: ImportProgress): void {
    if (!this.active) return;
    const now = Date.now();
    if (now - this.last < 100 && progress.phase !== 'finish') return;
    this.last = now;
    const width = 28;
    const ratio =
      progress.bytesTotal > 0 ? Math.min(1, progress.bytesDone / progress.bytesTotal) : 0;
    const filled = Math.round(ratio * width);
    const label =
      progress.phase === 'checksum'
        ? 'checking'
        : progress.phase === 'convert'
          ? 'converting'
          : progress.phase === 'push'
            ? 'pushing'
            : 'finishing';
    const line = `${label.padEnd(10)} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ${formatBytes(progress.bytesDone)}/${formatBytes(progress.bytesTotal)} · ${thousands(progress.conversations)} conversations`;
    this.stream.write(`\r${line.slice(0, (this.stream.columns || 100) - 1)}\x1b[K`);
    this.shown = true;
  }

  /** Clears the line. */
  done(): void {
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
