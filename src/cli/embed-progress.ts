import type { EmbedPlan, EmbedProgress } from '../api/models.js';
import { formatBytes } from './progress-bar.js';
import { plural } from './plural.js';

/** A duration for people: `45 s`, `12 min`, `3 h 20 min`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  if (seconds < 90) return `${Math.max(1, Math.round(seconds))} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** How many cores the model embeds on, for the plan and the report: `on 2 cores`. */
function onCores(workers: number | undefined): string {
  return workers === undefined ? '' : ` on ${plural(workers, 'core')}`;
}

/**
 * The model's pace, in all and per core (each worker of the pool takes one):
 * `31.2 texts/s on 2 cores, 15.6 per core`; an endpoint's has no cores here.
 */
export function describeRate(texts: number, seconds: number, workers: number | undefined): string {
  const rate = seconds > 0 ? texts / seconds : 0;
  const all = `${rate.toFixed(1)} texts/s`;
  if (workers === undefined) return all;
  return workers > 1
    ? `${all}${onCores(workers)}, ${(rate / workers).toFixed(1)} per core`
    : `${all}${onCores(workers)}`;
}

/**
 * What an embed pass is about to do, in one sentence. The time is the model's measured cost of
 * the chunks' tokens on free cores, one a worker (src/recall/embed-plan.ts); a busy machine takes
 * longer.
 */
export function describePlan(plan: EmbedPlan, model: string): string {
  const time = `about ${formatDuration(plan.seconds)}${onCores(plan.workers)}`;
  if (plan.pass === 'conversations')
    return `embedding ${plural(plan.conversations, 'conversation')} first, one vector each (title, first questions, the start of long answers), newest first, so search by meaning finds them all: ${time} with ${model}`;
  if (plan.conversations === 0)
    return `nothing to embed: every conversation has its vectors (${model})`;
  const cached = plan.cached > 0 ? `, ${plan.cached.toLocaleString('en-US')} from the cache` : '';
  return `embedding ${plural(plan.conversations, 'conversation')} whole: ${plural(plan.chunks, 'chunk')} of ${plural(plan.texts, 'text')}, ${formatBytes(plan.characters)}${cached}, with ${model}; ${time}`;
}

/** Whether a pass's progress has every conversation done. */
export function passDone(progress: EmbedProgress): boolean {
  return progress.conversations > 0 && progress.conversationsDone >= progress.conversations;
}

/** The line said when the first pass ends: every conversation can be found by meaning. */
export function describeFirstPassDone(progress: EmbedProgress, seconds: number): string {
  return `all ${plural(progress.conversations, 'conversation')} can be found by meaning now (${formatDuration(seconds)} in); next, every chunk of their texts, cut and counted first`;
}

/** The embed progress bar: done, rate and time left, on a terminal's stderr. */
export class EmbedProgressBar {
  private last = 0;
  private shown = false;
  private readonly started = Date.now();
  /** The model's workers, told by the plan (the rate is given per core too). */
  workers: number | undefined;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {}

  update(progress: EmbedProgress): void {
    // A pass with nothing to do ("nothing to embed") draws no bar of zeros.
    if (!this.stream.isTTY || progress.conversations === 0) return;
    const now = Date.now();
    if (now - this.last < 200) return;
    this.last = now;
    const width = 24;
    const ratio = progress.characters > 0 ? progress.charactersDone / progress.characters : 1;
    const filled = Math.round(Math.min(1, ratio) * width);
    const elapsed = (now - this.started) / 1000;
    const rate = elapsed > 0 ? progress.charactersDone / elapsed : 0;
    const left = rate > 0 ? (progress.characters - progress.charactersDone) / rate : NaN;
    const pace =
      progress.seconds > 0
        ? ` (${describeRate(progress.embedded, progress.seconds, this.workers)})`
        : '';
    const line = `embedding ${progress.pass === 'conversations' ? 'conversations' : 'chunks'} [${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ${progress.conversationsDone.toLocaleString('en-US')}/${progress.conversations.toLocaleString('en-US')} conversations · ${progress.embedded.toLocaleString('en-US')} embedded${pace}, ${progress.cached.toLocaleString('en-US')} cached · ${formatDuration(left)} left`;
    this.stream.write(`\r${line.slice(0, (this.stream.columns || 100) - 1)}\x1b[K`);
    this.shown = true;
  }

  done(): void {
    if (this.shown) this.stream.write('\r\x1b[K');
    this.shown = false;
  }
}
