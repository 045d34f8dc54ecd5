import { readFile } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import { FileClaims, type FollowHow } from './file-claims.js';
import { findSides, SideIndex, type FoundSides } from './file-sides.js';
import type { FollowTarget } from './follow-targets.js';
import { isExportName, pathsOf, type FileStat, type FollowedFile } from './scan-folders.js';

/** A SQLite store's files beside its main one: a change to them is a change of the store. */
const STORE_COMPANION = /-(wal|journal|shm)$/;

/**
 * What the follower knows of the followed folders: every file under them as last seen (size,
 * time, inode), the providers' claims on them, and the file sets their side files belong to.
 * It says what each changed path is: a followed file (with how it is followed), a side file of
 * some, a SQLite store's WAL, or nothing to follow.
 */
export class FollowedTree {
  /** Every file under the targets, as the last scan or event saw it. */
  readonly files = new Map<string, FileStat>();
  private readonly claims = new FileClaims();
  private readonly sideIndex = new SideIndex();
  /** The followed files as last seen, by path. */
  readonly followed = new Map<string, FollowedFile>();

  /** `fileTargets`: the targets that are one file (a SQLite store, a log beside a project). */
  constructor(
    readonly targets: readonly FollowTarget[],
    private readonly fileTargets: ReadonlySet<string>,
  ) {}

  /** The target a path is under (the deepest), or undefined. */
  targetOf(path: string): FollowTarget | undefined {
    let best: FollowTarget | undefined;
    for (const target of this.targets) {
      const under = this.isFileTarget(target)
        ? dirname(path) === dirname(target.path)
        : path === target.path || path.startsWith(target.path + sep);
      if (under && (!best || target.path.length > best.path.length)) best = target;
    }
    return best;
  }

  /** Whether a target is one file (a SQLite store, a log beside a project). */
  isFileTarget(target: FollowTarget): boolean {
    return this.fileTargets.has(target.path);
  }

  /**
   * What a file under a target is: followed (an agent's session file its provider claims, or
   * under a folder given to `watch`, an export dropped in), or undefined. Its first bytes are
   * read once (see `FileClaims`).
   */
  async followedOf(path: string, stat: FileStat): Promise<FollowedFile | undefined> {
    const target = this.targetOf(path);
    if (!target) return undefined;
    // A file beside a followed file alone is not followed itself (it may be a side file).
    if (this.isFileTarget(target) && path !== target.path) return undefined;
    const root = target.path;
    const { entryPath } = pathsOf({ path, root });
    const claim = await this.claims.claim(path, entryPath, stat, target.provider);
    let file: FollowedFile | undefined;
    if (claim) file = { path, root, kind: claim.how, claim, ...stat };
    else if (target.provider === undefined && isExportName(path))
      file = { path, root, kind: 'export', ...stat };
    if (file) this.followed.set(path, file);
    else this.followed.delete(path);
    return file;
  }

  /**
   * A file a watch before this one followed and that has not changed since: counted as followed
   * (as it was) without reading it; claimed at its first change.
   */
  note(path: string, stat: FileStat, kind: string): void {
    const target = this.targetOf(path);
    if (!target || (kind !== 'append' && kind !== 'rewrite' && kind !== 'export')) return;
    this.followed.set(path, { path, root: target.path, kind, ...stat });
  }

  /** The followed SQLite store a file beside it belongs to (its WAL, journal, shared memory). */
  storeOf(path: string): FollowedFile | undefined {
    const main = path.replace(STORE_COMPANION, '');
    if (main === path) return undefined;
    const store = this.followed.get(main);
    return store?.kind === 'sqlite' ? store : undefined;
  }

  /** The followed file sets a path is a side file of (or may be: a pattern's folder). */
  setsOf(path: string): string[] {
    return this.sideIndex.mainsOf(path);
  }

  /** A file set's side files as found now (and noted, so that their changes are its changes). */
  async findSides(file: FollowedFile): Promise<FoundSides | undefined> {
    const format = file.claim?.detection.format;
    if (format?.kind !== 'file-set') return undefined;
    const found = await findSides(file.path, file.root, format.with, this.files);
    this.sideIndex.set(file.path, found);
    return found;
  }

  /** A file set's side files' text, by the name its format gives them (a JSON Lines set's). */
  async sideTexts(file: FollowedFile): Promise<Record<string, string> | undefined> {
    const found = await this.findSides(file);
    if (!found) return undefined;
    const texts: Record<string, string> = {};
    for (const { name, entry } of found.sides) {
      const text = await readFile(entry.localFile ?? '', 'utf8').catch(() => undefined);
      if (text !== undefined) texts[name] = text;
    }
    return texts;
  }

  /** A file gone: forgotten (returns what it was, when it was followed). */
  remove(path: string): FollowedFile | undefined {
    const was = this.followed.get(path);
    this.files.delete(path);
    this.followed.delete(path);
    this.claims.forget(path);
    this.sideIndex.delete(path);
    return was;
  }

  /** How each target's files are followed, and how many there are. */
  summary(): Map<FollowTarget, { how: Set<FollowHow>; files: number; exports: number }> {
    const out = new Map<FollowTarget, { how: Set<FollowHow>; files: number; exports: number }>();
    for (const target of this.targets) out.set(target, { how: new Set(), files: 0, exports: 0 });
    for (const file of this.followed.values()) {
      const target = this.targetOf(file.path);
      const entry = target && out.get(target);
      if (!entry) continue;
      if (file.kind === 'export') entry.exports++;
      else {
        entry.how.add(file.kind);
        entry.files++;
      }
    }
    return out;
  }
}
