import { stat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { Folder } from '../folder/folder.js';
import type { LiveSnapshot } from '../read/sqlite-snapshot.js';
import { embedNew } from './embed-new.js';
import { Conversions } from './follow-document.js';
import type { FollowEvent } from './follow-event.js';
import { followFile, type FileContext, type Pending } from './follow-file.js';
import type { FollowOptions } from './follow-options.js';
import type { FolderWatch } from './folder-watch.js';
import type { FollowedTree } from './followed-tree.js';
import { LiveState, type FileState, type SessionState } from './live-state.js';
import type { LiveWriter } from './live-writer.js';
import {
  sameStat,
  scanInto,
  scanTargets,
  unchangedSince,
  type FileStat,
  type FollowedFile,
} from './scan-folders.js';
import { SessionCache } from './session-cache.js';

/** A pass over one file at least this long defers that file's next pass by as long. */
const SLOW_MILLISECONDS = 50;
const MAX_DEFER_MILLISECONDS = 500;
/**
 * A settle costs the grown sessions' length (their bundle files, hashes and Documents): the
 * next one waits at least this many times as long as the last took, so a long session written
 * to without a pause spends at most a tenth of a core on it.
 */
const SETTLE_SPACING = 10;

/**
 * The follower's queue: every change (a path an event named, a re-scan, a store's poll) waits
 * in it and is handled one at a time; what costs a session's length waits for a quiet moment
 * (see {@link settle}).
 */
export class FollowRunner {
  private readonly state: LiveState;
  private readonly states: Map<string, FileState>;
  private readonly sessions = new SessionCache();
  private readonly conversions = new Conversions();
  private readonly snapshots = new Map<string, LiveSnapshot>();
  private readonly storeSessions = new Map<string, Map<string, SessionState>>();
  private readonly pending = new Map<string, Pending>();
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
  /** Files whose last pass was slow (or stores read): not taken again before this time. */
  private readonly notBefore = new Map<string, number>();
  /** The data folder, resolved: nothing inside it is followed. */
  private readonly inside: string;

  constructor(
    private readonly folder: Folder,
    private readonly options: FollowOptions,
    private readonly tree: FollowedTree,
    private readonly writer: LiveWriter,
    private readonly deep: boolean,
  ) {
    this.inside = resolve(folder.dir);
    this.state = new LiveState(folder.layout.liveState, folder.sqliteKey);
    // Started in the other redaction mode: every file is read again whole (as import does).
    this.state.useMode(options.redact === true ? 'redacted' : 'plain');
    this.states = this.state.all();
  }

  /** A path an event named changed (undefined: something changed, a re-scan is due). */
  changed(path: string | undefined): void {
    if (path === undefined) this.rescan = true;
    else if (!this.inDataDir(path)) this.queue(path, { settled: false, sides: false });
    this.kick();
  }

  /** The first pass: every file under the targets looked at (what is new since last time read). */
  async start(watch: FolderWatch): Promise<void> {
    this.watch = watch;
    this.running = this.pass();
    await this.running;
    this.running = undefined;
    await this.settle();
    const every =
      watch.mode === 'events'
        ? (this.options.rescanMilliseconds ?? 60_000)
        : (this.options.pollMilliseconds ?? 2000);
    if (watch.mode === 'events') this.every(every, () => (this.rescan = true));
    // SQLite stores: their stamps looked at (three `stat`s and two small reads each).
    this.every(this.options.storeMilliseconds ?? 2000, () => {
      for (const file of this.tree.followed.values())
        if (file.kind === 'sqlite') this.queue(file.path, { settled: true, sides: false });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.watch?.close();
    for (const timer of this.timers) clearTimeout(timer);
    await this.running;
    await this.settle();
    this.state.close();
    await this.writer.close();
    for (const snapshot of this.snapshots.values()) await snapshot.close();
  }

  /** Starts the queue unless it runs; it drains every change that came in meanwhile. */
  kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if ((this.rescan || this.nextReady()) && !this.stopped) this.kick();
    });
  }

  private every(milliseconds: number, tick: () => void): void {
    const timer = setInterval(() => {
      tick();
      this.kick();
    }, milliseconds);
    timer.unref();
    this.timers.add(timer);
  }

  private queue(path: string, change: Pending): void {
    const was = this.pending.get(path);
    this.pending.set(path, {
      settled: change.settled || was?.settled === true,
      sides: change.sides || was?.sides === true,
    });
  }

  private emit(event: FollowEvent): void {
    this.options.onEvent?.(event);
  }

  private inDataDir(path: string): boolean {
    return path === this.inside || path.startsWith(this.inside + sep);
  }

  // Every file under the targets, compared with what was seen: new and changed ones handled,
  // those gone forgotten (what was imported from them stays).
  private async pass(): Promise<void> {
    const found = await scanTargets(
      this.tree.targets,
      (path, error) => {
        this.emit({ kind: 'problem', file: path, message: describe(error) });
      },
      (path) => this.inDataDir(path),
    );
    for (const path of [...this.tree.files.keys()]) if (!found.has(path)) this.gone(path);
    for (const path of [...this.states.keys()])
      if (!found.has(path) && this.tree.targetOf(path)) this.gone(path);
    for (const [path, info] of found) {
      const seen = this.tree.files.get(path);
      this.tree.files.set(path, info);
      if (seen && sameStat(seen, info)) continue;
      // Unchanged since the last watch: known without being read (a store is polled, so claimed).
      const known = this.states.get(path);
      const kind = known?.kind;
      if (
        !seen &&
        known &&
        kind !== undefined &&
        kind !== 'sqlite' &&
        unchangedSince(known, info)
      ) {
        this.tree.note(path, info, kind);
        continue;
      }
      await this.look(path, info, { settled: false, sides: false });
    }
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (this.pending.size > 0 || this.rescan)) {
      if (this.rescan) {
        this.rescan = false;
        await this.pass();
        continue;
      }
      const next = this.nextReady();
      if (!next) {
        this.wakeForDeferred();
        break;
      }
      const [path, change] = next;
      this.pending.delete(path);
      const started = Date.now();
      await this.lookAt(path, change);
      // A pass that costs a session's length (a log read whole, a change the conversion could
      // not go on from): the file is taken again only after half as long as that took (at most
      // 0.5 s), so a burst of lines is written in fewer passes, at some latency. A store is
      // read at most every `storeMilliseconds`.
      const took = Date.now() - started;
      const store = this.tree.followed.get(path)?.kind === 'sqlite';
      // (A tick's worth early: the poll's next tick is not put off to the one after.)
      if (store) this.notBefore.set(path, started + (this.options.storeMilliseconds ?? 2000) - 50);
      else if (took >= SLOW_MILLISECONDS)
        this.notBefore.set(path, Date.now() + Math.min(took / 2, MAX_DEFER_MILLISECONDS));
      else this.notBefore.delete(path);
    }
    this.scheduleIndex();
  }

  private nextReady(): [string, Pending] | undefined {
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

  // A path an event named (or a store's poll): what it is now.
  private async lookAt(path: string, change: Pending): Promise<void> {
    if (!this.tree.targetOf(path)) return;
    const info = await stat(path).catch(() => undefined);
    if (!info) {
      this.gone(path);
      return;
    }
    if (info.isDirectory()) {
      // A folder that appeared (a session's subagents/): what it holds is looked at now.
      const found = new Map<string, FileStat>();
      await scanInto(
        path,
        found,
        () => undefined,
        (p) => this.inDataDir(p),
      );
      for (const [file, seen] of found) {
        this.tree.files.set(file, seen);
        await this.look(file, seen, { settled: false, sides: false });
      }
      return;
    }
    if (!info.isFile()) return;
    const seen = { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
    this.tree.files.set(path, seen);
    await this.look(path, seen, change);
  }

  // A file that is (or may have become) followed, or a file of one: handled.
  private async look(path: string, info: FileStat, change: Pending): Promise<void> {
    const store = this.tree.storeOf(path);
    if (store) {
      this.queue(store.path, { settled: true, sides: false });
      return;
    }
    for (const set of this.tree.setsOf(path))
      if (set !== path) this.queue(set, { settled: false, sides: true });
    const file = await this.tree.followedOf(path, info).catch((error: unknown) => {
      this.emit({ kind: 'problem', file: path, message: describe(error) });
      return undefined;
    });
    if (file) await this.handle(file, change);
  }

  private async handle(file: FollowedFile, change: Pending): Promise<void> {
    try {
      const { settled } = change;
      // A rewritten document's own folder is watched too (see `FolderWatch.add`).
      if (file.kind === 'rewrite') this.watch?.add(dirname(file.path));
      const outcome = await followFile(file, change, this.context);
      // A settled last line that still does not parse waits for the next change; a busy store
      // for the next poll.
      if (outcome.waiting && !settled && file.kind !== 'sqlite')
        this.settleLater(file.path, outcome.size);
    } catch (error) {
      this.emit({ kind: 'problem', file: file.path, message: describe(error) });
    }
  }

  private get context(): FileContext {
    return {
      folder: this.folder,
      writer: this.writer,
      state: this.state,
      states: this.states,
      deep: this.deep,
      redact: this.options.redact === true,
      emit: (event: FollowEvent) => {
        this.emit(event);
      },
      onWait: this.options.onWait,
      sessions: this.sessions,
      sidesOf: (f) => this.tree.sideTexts(f),
      conversions: this.conversions,
      findSides: (f) => this.tree.findSides(f),
      snapshots: this.snapshots,
      storeSessions: this.storeSessions,
      importExport: this.options.importExport,
    };
  }

  // A followed file deleted: forgotten; its conversations stay, kept only here now.
  private gone(path: string): void {
    const was = this.tree.remove(path);
    const known = this.states.get(path);
    this.sessions.delete(path);
    this.conversions.delete(path);
    if (!known && !was) return;
    this.states.delete(path);
    this.state.forgetGone(path, known, this.states, this.storeSessions.get(path));
    this.storeSessions.delete(path);
    this.emit({ kind: 'gone', file: path });
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
          this.queue(path, { settled: same, sides: false });
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
  // hashes, the bundle's index, then the files' marks (they count once the bundle has the lines).
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
