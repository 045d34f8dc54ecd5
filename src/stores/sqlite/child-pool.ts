import type { ChildProcess } from 'node:child_process';
import { Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { TooManyRunningError } from '../query-limits.js';

/** The last bytes a child wrote to stderr (the reason it gave, when it failed). */
const STDERR_TAIL = 4096;

/** A child process of a pool, with the end of what it wrote to stderr. */
export interface PooledChild {
  process: ChildProcess;
  stderr: string;
}

/**
 * The node arguments that run the child module `name` beside this one: the compiled `.js`, or
 * from source (tests) the TypeScript through the loader.
 */
export function childCommand(name: string): string[] {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    return [
      '--import',
      fileURLToPath(new URL('../../../scripts/ts-loader.mjs', here)),
      fileURLToPath(new URL(`./${name}.ts`, here)),
    ];
  }
  return [fileURLToPath(new URL(`./${name}.js`, here))];
}

/** A pooled child over a process spawned with stderr piped, keeping the end of its stderr. */
export function pooled<C extends PooledChild>(child: C): C {
  child.process.stderr?.setEncoding('utf8');
  child.process.stderr?.on('data', (chunk: string) => {
    child.stderr = (child.stderr + chunk).slice(-STDERR_TAIL);
  });
  child.process.on('error', () => undefined);
  return child;
}

/** The last line the child wrote to stderr, if any. */
export function lastStderrLine(child: PooledChild): string {
  return child.stderr.trim().split('\n').pop() ?? '';
}

/** Kills the child unless it has ended already. */
export function endChild({ process: child }: PooledChild): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

// A warm child waiting for the next job does not keep the process alive; a busy one does.
function holdOpen({ process: child }: PooledChild, hold: boolean): void {
  const handles = [child, child.channel, child.stderr instanceof Socket ? child.stderr : undefined];
  for (const handle of handles) {
    if (hold) handle?.ref();
    else handle?.unref();
  }
}

/**
 * Child processes that each run one job at a time, at most `max` at once (one more is refused
 * rather than queued behind slow ones), one kept warm for the next job; a child whose job
 * failed (its deadline, a crash) is killed.
 */
export class ChildPool<C extends PooledChild> {
  private idle: C | undefined;
  private readonly running = new Set<C>();

  constructor(
    private readonly max: number,
    /** What a job is called in the refusal, plural ("queries"). */
    private readonly jobs: string,
  ) {}

  /**
   * Runs `work` on the warm child when `fits` takes it, else on one `spawn` starts; after it the
   * child is kept warm when `keep` says so, else ended (always ended when `work` throws).
   */
  async use<T>(
    spawn: () => C,
    work: (child: C) => Promise<T>,
    options: { fits?: (child: C) => boolean; keep?: (answer: T) => boolean } = {},
  ): Promise<T> {
    if (this.running.size >= this.max)
      throw new TooManyRunningError(
        `${String(this.max)} ${this.jobs} are running already: try again when one of them ends`,
      );
    const child = this.take(spawn, options.fits ?? (() => true));
    this.running.add(child);
    let answer: T;
    try {
      answer = await work(child);
    } catch (error) {
      endChild(child);
      throw error;
    } finally {
      this.running.delete(child);
    }
    if (options.keep?.(answer) ?? true) this.release(child);
    else endChild(child);
    return answer;
  }

  /** Ends every child. */
  close(): void {
    if (this.idle) endChild(this.idle);
    this.idle = undefined;
    for (const child of this.running) endChild(child);
  }

  private take(spawn: () => C, fits: (child: C) => boolean): C {
    const idle = this.idle;
    this.idle = undefined;
    if (idle?.process.connected && fits(idle)) {
      holdOpen(idle, true);
      return idle;
    }
    if (idle) endChild(idle);
    return spawn();
  }

  private release(child: C): void {
    if (this.idle || !child.process.connected) {
      endChild(child);
      return;
    }
    holdOpen(child, false);
    this.idle = child;
  }
}
