import type { EmbedPlan, EmbedProgress } from '../index.js';
import { formatBytes } from './progress-bar.js';
import { plural } from './plural.js';

/** Characters a second the default model embeds on a 2-core machine (bench/embed.mjs). */
export const ESTIMATED_CHARACTERS_PER_SECOND = 20_000;

/** A duration for people: `45 s`, `12 min`, `3 h 20 min`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** What an embed run is about to do, in one sentence. */
export function describePlan(plan: EmbedPlan, model: string): string {
  if (plan.conversations === 0)
    return `nothing to embed: every conversation has its vectors (${model})`;
  const seconds = plan.characters / ESTIMATED_CHARACTERS_PER_SECOND;
  return `embedding ${plural(plan.conversations, 'conversation')}: ${plural(plan.texts, 'text')}, ${formatBytes(plan.characters)} with ${model}; at most about ${formatDuration(seconds)} (texts embedded before come from the cache)`;
}

/** The embed progress bar: done, rate and time left, on a terminal's stderr. */
export class EmbedProgressBar {
  private last = 0;
  private shown = false;
  private readonly started = Date.now();

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update(progress: EmbedProgress): void {
    if (!this.stream.isTTY) return;
    const now = Date.now();
    if (now - this.last < 200) return;
    this.last = now;
    const width = 24;
    const ratio = progress.characters > 0 ? progress.charactersDone / progress.characters : 1;
    const filled = Math.round(Math.min(1, ratio) * width);
    const elapsed = (now - this.started) / 1000;
    const rate = elapsed > 0 ? progress.charactersDone / elapsed : 0;
    const left = rate > 0 ? (progress.characters - progress.charactersDone) / rate : NaN;
    const line = `embedding [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ${progress.conversationsDone.toLocaleString('en-US')}/${progress.conversations.toLocaleString('en-US')} conversations · ${progress.embedded.toLocaleString('en-US')} embedded, ${progress.cached.toLocaleString('en-US')} cached · ${formatDuration(left)} left`;
    this.stream.write(`\r${line.slice(0, (this.stream.columns || 100) - 1)}\x1b[K`);
    this.shown = true;
  }

  done(): void {
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
