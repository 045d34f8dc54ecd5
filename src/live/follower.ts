import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { claudeCodeProjectDirs } from './claude-code-home.js';
import type { Folder } from '../folder/folder.js';
import type { LockHolder } from '../folder/write-lock.js';
import { followExport, type ImportExport } from './follow-export.js';
import type { FollowEvent } from './follow-event.js';
import { followLog } from './follow-log.js';
import { watchFolders, type FolderWatch } from './folder-watch.js';
import { LiveState, type FileState } from './live-state.js';
import { LiveWriter } from './live-writer.js';
import { followedKind, scanFolders, scanInto, type FollowedFile } from './scan-folders.js';
import { SessionCache } from './session-cache.js';
import { embedNew } from './embed-new.js';

/** Options of {@link followFolders}. */
export interface FollowOptions {
  /** Folders to follow; default Claude Code's session folders (as `import` finds them). */
  folders?: readonly string[] | undefined;
  /** Embed new messages too, when the data folder has vectors. */
  embed?: boolean | undefined;
  /** Mask secrets before anything is written, as `import --redact` does. */
  redact?: boolean | undefined;
  /** Poll instead of file-system events (network file systems). */
  poll?: boolean | undefined;
  /** Poll period (default 2 s); with events, a safety re-scan every `rescanMilliseconds` (60 s). */
  pollMilliseconds?: number | undefined;
  rescanMilliseconds?: number | undefined;
  /** How long a size must stay the same before a cut-off last line or a dropped export counts (500 ms). */
  settleMilliseconds?: number | undefined;
  /** Quiet time before the bundle's index (and vectors) are brought up to date (1 s). */
  indexDelayMilliseconds?: number | undefined;
  onEvent?: ((event: FollowEvent) => void) | undefined;
  onWait?: ((holder: LockHolder) => void) | undefined;
  /** How a dropped export is imported: given by the data folder, which composes the import. */
  importExport?: ImportExport | undefined;
}

/** A running follower. */
export interface Follower {
  /** The folders followed. */
  folders: string[];
  /** Stops watching, finishes what it was writing, and closes the store. */
  stop(): Promise<void>;
}

/**
 * Follows folders of Claude Code session logs and dropped exports, importing what is new now
 * and then each change as it happens (see `followLog`, `followExport`). Changes are handled
 * one at a time, in a single queue; resolves once the first pass is done.
 */
export async function followFolders(folder: Folder, options: FollowOptions): Promise<Follower> {
  const folders = (options.folders ?? claudeCodeProjectDirs()).map((f) => resolve(f));
  const writer = await LiveWriter.open(folder);
  const runner = new FollowRunner(folder, options, folders, writer, await writer.target.deep());
  await runner.start();
  return { folders, stop: () => runner.stop() };
}

/** A pass over one file at least this long defers that file's next pass by as long. */
const SLOW_MILLISECONDS = 50;
const MAX_DEFER_MILLISECONDS = 500;
/**
 * A settle costs the grown sessions' length (their bundle files, hashes and Documents): the
 * next one waits at least this many times as long as the last took, so a long session written
 * to without a pause spends at most a tenth of a core on it.
 */
const SETTLE_SPACING = 10;

class FollowRunner {
  private readonly state: LiveState;
  private readonly states: Map<string, FileState>;
  private readonly sessions = new SessionCache();
  private readonly pending = new Map<string, boolean>();
  private readonly sizes = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private rescan = false;
  private running: Promise<void> | undefined;
  private watch: FolderWatch | undefined;
  private stopped = false;
  private indexTimer: NodeJS.Timeout | undefined;
  /** How long the last settle took (ms). */
  private settleTook = 0;
  private deferTimer: NodeJS.Timeout | undefined;
  /** Logs whose last pass was slow: not taken again before this time (ms since the epoch). */
  private readonly notBefore = new Map<string, number>();

  constructor(
    private readonly folder: Folder,
    private readonly options: FollowOptions,
    private readonly folders: string[],
    private readonly writer: LiveWriter,
    private readonly deep: boolean,
  ) {
    this.state = new LiveState(folder.layout.liveState, folder.sqliteKey);
    // Started in the other redaction mode: every file is read again whole (as import does).
    this.state.useMode(options.redact === true ? 'redacted' : 'plain');
    this.states = this.state.all();
  }

  async start(): Promise<void> {
    const poll = this.options.poll === true;
    this.watch = watchFolders(
      this.folders,
      (path) => {
        if (path === undefined) this.rescan = true;
        else if (!this.inDataDir(path)) this.pending.set(path, false);
        this.kick();
      },
      { poll, pollMilliseconds: this.options.pollMilliseconds ?? 2000 },
    );
    // The first pass holds the queue: changes seen meanwhile wait for it.
    let files: FollowedFile[] = [];
    this.running = (async () => {
      files = await this.scan();
      for (const file of files) await this.handle(file, false);
      await this.settle();
    })();
    await this.running;
    this.running = undefined;
    this.emit({
      kind: 'ready',
      folders: this.folders,
      logs: files.filter((f) => f.kind === 'log').length,
      exports: files.filter((f) => f.kind === 'export').length,
      mode: this.watch.mode,
    });
    if (this.watch.mode === 'events') {
      const every = this.options.rescanMilliseconds ?? 60_000;
      const timer = setInterval(() => {
        this.rescan = true;
        this.kick();
      }, every);
      timer.unref();
      this.timers.add(timer);
    }
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watch?.close();
    for (const timer of this.timers) clearTimeout(timer);
    await this.running;
    await this.settle();
    this.state.close();
    await this.writer.close();
  }

  private emit(event: FollowEvent): void {
    this.options.onEvent?.(event);
  }

  private inDataDir(path: string): boolean {
    return path === this.folder.dir || path.startsWith(this.folder.dir + sep);
  }

  private async scan(): Promise<FollowedFile[]> {
    const files = await scanFolders(this.folders, (path, error) => {
      this.emit({ kind: 'problem', file: path, message: describe(error) });
    });
    const found = new Set(files.map((f) => f.path));
    // Files remembered but gone: forgotten (what was imported from them stays).
    for (const path of [...this.states.keys()])
      if (!found.has(path) && this.folders.some((f) => path.startsWith(f + sep))) this.forget(path);
    return files.filter((f) => !this.inDataDir(f.path));
  }

  private forget(path: string): void {
    this.states.delete(path);
    this.state.delete(path);
    this.sessions.delete(path);
    this.emit({ kind: 'gone', file: path });
  }

  // Starts the queue unless it runs; it drains every change that came in meanwhile.
  private kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if ((this.rescan || this.nextReady()) && !this.stopped) this.kick();
    });
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (this.pending.size > 0 || this.rescan)) {
      if (this.rescan) {
        this.rescan = false;
        for (const file of await this.scan()) await this.handle(file, false);
        continue;
      }
      const next = this.nextReady();
      if (!next) {
        this.wakeForDeferred();
        break;
      }
      const [path, settled] = next;
      this.pending.delete(path);
      const started = Date.now();
      await this.handlePath(path, settled);
      // A pass that costs a session's length (a log read whole, a change the conversion could
      // not go on from): the log is taken again only after half as long as that took (at most
      // 0.5 s), so a burst of lines is written in fewer passes, at some latency.
      const took = Date.now() - started;
      if (took >= SLOW_MILLISECONDS)
        this.notBefore.set(path, Date.now() + Math.min(took / 2, MAX_DEFER_MILLISECONDS));
      else this.notBefore.delete(path);
    }
    this.scheduleIndex();
  }

  private nextReady(): [string, boolean] | undefined {
    const now = Date.now();
    for (const entry of this.pending) if ((this.notBefore.get(entry[0]) ?? 0) <= now) return entry;
    return undefined;
  }

  private wakeForDeferred(): void {
    if (this.deferTimer || this.stopped) return;
    // A loop, not Math.min(...): a watched folder may hold more files than a call takes arguments.
    let at = Infinity;
    for (const path of this.pending.keys()) at = Math.min(at, this.notBefore.get(path) ?? 0);
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.deferTimer = undefined;
        this.kick();
      },
      Math.max(0, at - Date.now()),
    );
    this.deferTimer = timer;
    this.timers.add(timer);
  }

  private async handlePath(path: string, settled: boolean): Promise<void> {
    const info = await stat(path).catch(() => undefined);
    const root = this.folders.find((f) => path.startsWith(f + sep));
    if (!root) return;
    if (!info) {
      if (this.states.has(path)) this.forget(path);
      return;
    }
    if (info.isDirectory()) {
      // A folder that appeared (a session's subagents/): what it holds is looked at now.
      const found: FollowedFile[] = [];
      await scanInto(root, path, found, () => undefined);
      for (const file of found) await this.handle(file, false);
      return;
    }
    const kind = followedKind(path);
    if (!kind || !info.isFile()) return;
    await this.handle({ path, root, kind, size: info.size, mtimeMs: info.mtimeMs }, settled);
  }

  private async handle(file: FollowedFile, settled: boolean): Promise<void> {
    try {
      const context = { ...this.contextBase(), writer: this.writer, deep: this.deep };
      const outcome =
        file.kind === 'log'
          ? await followLog(file, settled, {
              ...context,
              sessions: this.sessions,
              redact: this.options.redact === true,
            })
          : await followExport(file, settled, {
              ...context,
              importExport: this.options.importExport,
            });
      // A settled last line that still does not parse waits for the next change.
      if (outcome.waiting && !(settled && file.kind === 'log'))
        this.settleLater(file.path, outcome.size);
    } catch (error) {
      this.emit({ kind: 'problem', file: file.path, message: describe(error) });
    }
  }

  private contextBase(): {
    folder: Folder;
    state: LiveState;
    states: Map<string, FileState>;
    emit: (event: FollowEvent) => void;
    onWait: ((holder: LockHolder) => void) | undefined;
  } {
    return {
      folder: this.folder,
      state: this.state,
      states: this.states,
      emit: (event) => {
        this.emit(event);
      },
      onWait: this.options.onWait,
    };
  }

  // A cut-off last line or a growing export: looked at again once its size stayed the same.
  private settleLater(path: string, size: number): void {
    this.sizes.set(path, size);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void stat(path)
        .then((info) => {
          if (this.stopped) return;
          const same = info.size === this.sizes.get(path);
          this.pending.set(path, same || this.pending.get(path) === true);
          this.kick();
        })
        .catch(() => undefined);
    }, this.options.settleMilliseconds ?? 500);
    this.timers.add(timer);
  }

  // The bundle files, its index and the vectors follow after a quiet moment, not at every line.
  private scheduleIndex(): void {
    if (!this.settlePending || this.stopped || this.indexTimer) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        this.indexTimer = undefined;
        if (this.running || this.stopped) {
          this.scheduleIndex();
          return;
        }
        this.running = this.settle().finally(() => {
          this.running = undefined;
          this.kick();
        });
      },
      Math.max(this.options.indexDelayMilliseconds ?? 1000, this.settleTook * SETTLE_SPACING),
    );
    this.indexTimer = timer;
    this.timers.add(timer);
  }

  private get settlePending(): boolean {
    return this.writer.settlePending || this.state.uncommitted;
  }

  // What waits for a quiet moment: grown conversations' bundle files, Documents and content
  // hashes, the bundle's index, then the logs' marks (they count once the bundle has the lines).
  private async settle(): Promise<void> {
    if (!this.settlePending) return;
    try {
      await this.folder.write(
        async () => {
          const started = Date.now();
          await this.writer.settle();
          this.state.commit();
          this.settleTook = Date.now() - started;
        },
        { onWait: this.options.onWait, kept: this.writer.target },
      );
      if (this.options.embed === true) {
        const chunks = await embedNew(this.folder, this.writer.target);
        if (chunks > 0) this.emit({ kind: 'embedded', chunks });
      }
    } catch (error) {
      this.emit({ kind: 'problem', file: undefined, message: describe(error) });
    }
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
