import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, lstat, mkdir, readFile, rename, rm, rmdir, stat } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../bundle/atomic-write.js';
import { sha256File } from '../embed/sha256-file.js';
import { QueryError } from '../stores/store.js';
import { isInsidePath } from './file-names.js';

/** The manifest an export keeps in its folder: what it wrote, to write only what changed. */
export const MANIFEST_FILE = '.chatgraph-export.json';

const entrySchema = z.object({
  hash: z.string(),
  size: z.number(),
  mtimeMs: z.number(),
  /** The conversation the file belongs to (a renamed one's old file is "moved"). */
  owner: z.string().optional(),
});
const manifestSchema = z.object({
  schema: z.literal('chatgraph-export'),
  version: z.literal(1),
  format: z.string(),
  files: z.record(entrySchema),
});
type Entry = z.infer<typeof entrySchema>;

/** A file an export left alone: the user changed it since it was written, or it is not ours. */
export interface KeptFile {
  path: string;
  /** `link`: the file, or a folder on its way, is a link (never followed out of the folder). */
  reason: 'edited' | 'not-ours' | 'link';
}

/** What an export did to its folder. */
export interface ExportTally {
  written: number;
  unchanged: number;
  removed: number;
  /** Of those written, files that replace one of the same conversation under another name. */
  moved: number;
  kept: KeptFile[];
}

// The nearest of `dir` and its parents that exists: the file a folder cannot be made over.
async function fileInTheWay(dir: string): Promise<string> {
  for (let at = dir; ; at = dirname(at)) {
    try {
      await stat(at);
      return at;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(at) === at) return dir;
    }
  }
}

/**
 * An export folder that holds another format's export, or a manifest that is not one: one
 * sentence for the user (a QueryError, so the shells say it as it is and exit 2).
 */
export class ExportFolderError extends QueryError {}

const sha256 = (data: string | Uint8Array): string =>
  createHash('sha256').update(data).digest('hex');

/**
 * The files of one export folder: each `put` writes a file only when its content differs from
 * what the manifest says was written, and keeps a file the user edited since (unless `force`);
 * `finish` removes the files of the last run that this one did not produce, and saves the
 * manifest. Paths are `/`-separated and relative to the folder.
 */
export class OutputTree {
  private readonly seen = new Set<string>();
  /** Folders of the export found to be folders, not links (see `linked`). */
  private readonly plainFolders = new Set<string>();
  private readonly ownersWritten = new Set<string>();
  private readonly tally: ExportTally = {
    written: 0,
    unchanged: 0,
    removed: 0,
    moved: 0,
    kept: [],
  };
  private bytes = 0;

  private constructor(
    readonly dir: string,
    private readonly format: string,
    private readonly force: boolean,
    private readonly before: Record<string, Entry>,
    private readonly after: Record<string, Entry>,
  ) {}

  /** Opens `dir` (made when missing) for an export in `format`. */
  static async open(dir: string, format: string, force: boolean): Promise<OutputTree> {
    try {
      await mkdir(dir, { recursive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // `--out README.md`: a file stands where the folder would go (or on the way to it).
      if (code === 'EEXIST' || code === 'ENOTDIR')
        throw new ExportFolderError(
          `--out ${dir}: ${await fileInTheWay(dir)} is a file, not a folder; give a folder to write the ${format} export into`,
        );
      throw error;
    }
    const file = join(dir, MANIFEST_FILE);
    let before: Record<string, Entry> = {};
    let text: string | undefined;
    const kind = await lstat(file).catch(() => undefined);
    if (kind && !kind.isFile())
      throw new ExportFolderError(
        `${file} is ${kind.isSymbolicLink() ? 'a link' : 'not a file'}, not a manifest an export wrote (an export never follows a link out of its folder); remove it or choose another --out folder`,
      );
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (text !== undefined) {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      const parsed = manifestSchema.safeParse(json);
      if (!parsed.success)
        throw new ExportFolderError(
          `${file}: not a chatgraph export manifest (${parsed.error.issues[0]?.message ?? 'not JSON'}); move it away or choose another --out folder`,
        );
      if (parsed.data.format !== format)
        throw new ExportFolderError(
          `${dir} holds a ${parsed.data.format} export; choose another --out folder for ${format}`,
        );
      // Every path an export writes is a plain relative one; a manifest naming another (`..`,
      // an absolute path) was not written by us, and following it would touch files outside.
      const stray = Object.keys(parsed.data.files).find((path) => !isInsidePath(path));
      if (stray !== undefined)
        throw new ExportFolderError(
          `${file} names "${stray}", not a file an export writes in its folder; move the manifest away or choose another --out folder`,
        );
      before = parsed.data.files;
    }
    return new OutputTree(dir, format, force, before, {});
  }

  /** Bytes written so far (for the benchmark's MB/s). */
  get bytesWritten(): number {
    return this.bytes;
  }

  private abs(path: string): string {
    return join(this.dir, ...path.split('/'));
  }

  /**
   * Whether `path`, or a folder on its way down from the export's folder, is a link (or the
   * path is something other than a file: a FIFO would hang its read): such a path is never
   * written, read or removed, so nothing outside the folder is touched through one. Folders
   * found plain are remembered for the run.
   */
  private async linked(path: string): Promise<boolean> {
    const parts = path.split('/');
    let at = '';
    for (const [n, part] of parts.entries()) {
      at = at === '' ? part : `${at}/${part}`;
      const last = n === parts.length - 1;
      if (!last && this.plainFolders.has(at)) continue;
      let info;
      try {
        info = await lstat(this.abs(at));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
      if (info.isSymbolicLink() || (last ? !info.isFile() : !info.isDirectory())) return true;
      if (!last) this.plainFolders.add(at);
    }
    return false;
  }

  /** The hash the file on disk has now, or undefined when it is missing; unread when unchanged. */
  private async diskHash(path: string, entry: Entry | undefined): Promise<string | undefined> {
    let info;
    try {
      info = await lstat(this.abs(path));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    // Same size and time as written: taken as unchanged without reading it again.
    if (entry && info.size === entry.size && info.mtimeMs === entry.mtimeMs) return entry.hash;
    return sha256File(this.abs(path));
  }

  private claim(path: string): void {
    if (this.seen.has(path)) throw new Error(`${path}: written twice in one export`);
    this.seen.add(path);
  }

  /**
   * Decides whether `path` is written with content of `hash`: false when it holds that already,
   * or holds something the user put there (kept, reported).
   */
  private async shouldWrite(
    path: string,
    hash: string,
    owner: string | undefined,
  ): Promise<boolean> {
    const entry = this.before[path];
    if (await this.linked(path)) {
      // Not even with --force: what is behind the link is not the export's.
      this.tally.kept.push({ path, reason: 'link' });
      if (entry) this.after[path] = entry;
      return false;
    }
    const disk = await this.diskHash(path, entry);
    const keep = (reason: KeptFile['reason']): boolean => {
      if (this.force) return true;
      this.tally.kept.push({ path, reason });
      if (entry) this.after[path] = entry;
      return false;
    };
    if (disk === undefined) return true;
    if (entry === undefined) {
      if (disk === hash) {
        await this.record(path, hash, owner, false);
        return false;
      }
      return keep('not-ours');
    }
    if (disk !== entry.hash) {
      // Already what this run writes: an export killed before it saved its manifest wrote it.
      if (disk === hash) {
        await this.record(path, hash, owner, false);
        return false;
      }
      return keep('edited');
    }
    if (hash === entry.hash) {
      this.after[path] = { ...entry, ...(owner !== undefined ? { owner } : {}) };
      this.tally.unchanged++;
      return false;
    }
    return true;
  }

  private async record(path: string, hash: string, owner: string | undefined, wrote: boolean) {
    const info = await stat(this.abs(path));
    this.after[path] = {
      hash,
      size: info.size,
      mtimeMs: info.mtimeMs,
      ...(owner !== undefined ? { owner } : {}),
    };
    if (!wrote) {
      this.tally.unchanged++;
      return;
    }
    this.tally.written++;
    this.bytes += info.size;
    if (owner !== undefined) this.ownersWritten.add(`${owner}\n${path}`);
  }

  /** Writes a file's content (when it changed). */
  async put(path: string, content: string | Uint8Array, owner?: string): Promise<void> {
    this.claim(path);
    const hash = sha256(content);
    if (!(await this.shouldWrite(path, hash, owner))) return;
    await writeFileAtomic(this.abs(path), content, { durable: false });
    await this.record(path, hash, owner, true);
  }

  /** Copies a file (an attachment) in (when it changed). */
  async copy(path: string, source: string, owner?: string): Promise<void> {
    this.claim(path);
    const hash = await sha256File(source);
    if (!(await this.shouldWrite(path, hash, owner))) return;
    await mkdir(dirname(this.abs(path)), { recursive: true });
    const temp = `${this.abs(path)}.${process.pid}.tmp`;
    // A link planted at the temporary name is removed, not written through.
    await rm(temp, { force: true });
    await copyFile(source, temp, constants.COPYFILE_EXCL);
    await rename(temp, this.abs(path));
    await this.record(path, hash, owner, true);
  }

  /** Moves a finished temporary file (written as it streamed) in, or drops it when unchanged. */
  async adopt(path: string, temp: string, owner?: string): Promise<void> {
    this.claim(path);
    const hash = await sha256File(temp);
    if (!(await this.shouldWrite(path, hash, owner))) {
      await rm(temp, { force: true });
      return;
    }
    await mkdir(dirname(this.abs(path)), { recursive: true });
    await rename(temp, this.abs(path));
    await this.record(path, hash, owner, true);
  }

  /** Removes what the last run wrote and this one did not (unless edited), saves the manifest. */
  async finish(): Promise<ExportTally> {
    const owners = new Set<string>();
    for (const key of this.ownersWritten) owners.add(key.split('\n')[0] ?? '');
    for (const [path, entry] of Object.entries(this.before)) {
      if (this.seen.has(path)) continue;
      if (await this.linked(path)) {
        this.tally.kept.push({ path, reason: 'link' });
        continue;
      }
      const disk = await this.diskHash(path, entry);
      if (disk === undefined) continue;
      if (disk !== entry.hash && !this.force) {
        this.tally.kept.push({ path, reason: 'edited' });
        continue;
      }
      await rm(this.abs(path), { force: true });
      await this.pruneFolders(path);
      this.tally.removed++;
      if (entry.owner !== undefined && owners.has(entry.owner)) {
        this.tally.moved++;
        this.tally.removed--;
      }
    }
    const manifest = {
      schema: 'chatgraph-export' as const,
      version: 1 as const,
      format: this.format,
      files: Object.fromEntries(Object.entries(this.after).sort(([a], [b]) => (a < b ? -1 : 1))),
    };
    const text = `${JSON.stringify(manifest, null, 1)}\n`;
    const current = await readFile(join(this.dir, MANIFEST_FILE), 'utf8').catch(() => undefined);
    if (current !== text) await writeFileAtomic(join(this.dir, MANIFEST_FILE), text);
    return this.tally;
  }

  // A removed file's folders, when it leaves them empty (a deleted conversation's attachments).
  private async pruneFolders(path: string): Promise<void> {
    let folder = dirname(this.abs(path));
    while (folder.length > this.dir.length && folder.startsWith(this.dir + sep)) {
      try {
        await rmdir(folder);
      } catch {
        return;
      }
      folder = dirname(folder);
    }
  }
}
