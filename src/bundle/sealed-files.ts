import { existsSync, readdirSync, rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { writeFileAtomic, writeFileAtomicSync, type AtomicWriteOptions } from './atomic-write.js';
import { FolderEncryptionError } from './encryption-markers.js';
import { readRegularFile, readRegularFileSync } from '../read/regular-file.js';

/**
 * How an encrypted folder's files are sealed and opened (docs/encryption.md): its key's age
 * codec. A folder that is plain has none.
 */
export interface Sealer {
  seal(plain: Uint8Array): Buffer;
  /** `sealed` opened; `file` names it in the error when it cannot be. */
  open(sealed: Uint8Array, file: string): Buffer;
}

/** What an encrypted folder's files are named with. */
export const SEALED_SUFFIX = '.age';

/** An encrypted folder's file was read by a process that has not opened the folder's key. */
export class SealedFileError extends FolderEncryptionError {}

function joined(data: string | Uint8Array | readonly Uint8Array[]): Uint8Array {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return data instanceof Uint8Array ? data : Buffer.concat(data);
}

/** A plain read that found nothing where a sealed file is: say so rather than answer "none". */
function missing(path: string, error: unknown): never {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(`${path}${SEALED_SUFFIX}`))
    throw new SealedFileError(`${path} is encrypted, and its folder's key was not opened`);
  throw error;
}

/**
 * One folder's files, read and written through one door so that an encrypted folder's are
 * sealed: once its key is open (`use`), `X` is kept as the age file `X.age`, and every read
 * opens it again, in memory. A plain folder's files (and any file of a door never given a
 * sealer: an export written out, a bundle read from elsewhere) are read and written as they
 * are. Callers name the plain path either way; only the door knows the difference. The data
 * folder's handle holds its door, with its key: nothing is sealed by a path's look.
 */
export class SealedFiles {
  private sealer: Sealer | undefined;

  /** Files are sealed with `sealer` from now on (the folder's key was just opened or made); none: plain again. */
  use(sealer: Sealer | undefined): void {
    this.sealer = sealer;
  }

  /** Whether files are sealed (the folder is encrypted and its key open). */
  get sealed(): boolean {
    return this.sealer !== undefined;
  }

  /** The file that holds `path`'s content on disk: itself, or its sealed form. */
  onDisk(path: string): string {
    return this.sealer ? `${path}${SEALED_SUFFIX}` : path;
  }

  /** The content of `bytes` read from {@link onDisk}`(path)`: opened when sealed. */
  plain(path: string, bytes: Buffer): Buffer {
    return this.sealer ? this.sealer.open(bytes, path) : bytes;
  }

  /**
   * `readFileSync(path)`, through the seal; a regular file only, of a bounded size (a FIFO or a
   * link to a device planted in a bundle is a `NotARegularFileError`, never a read that hangs).
   */
  readSync(path: string): Buffer {
    try {
      return this.plain(path, readRegularFileSync(this.onDisk(path)));
    } catch (error) {
      return missing(path, error);
    }
  }

  /** `readFile(path)`, through the seal; a regular file only, as {@link readSync}. */
  async read(path: string): Promise<Buffer> {
    try {
      return this.plain(path, await readRegularFile(this.onDisk(path)));
    } catch (error) {
      return missing(path, error);
    }
  }

  /** A file's text through the seal, or undefined when there is no such file. */
  readTextSync(path: string): string | undefined {
    try {
      return this.readSync(path).toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** A file's text through the seal, or undefined when there is no such file. */
  async readText(path: string): Promise<string | undefined> {
    try {
      return (await this.read(path)).toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** {@link writeFileAtomicSync}, sealed on an encrypted folder (the temporary file holds the sealed bytes). */
  writeSync(
    path: string,
    data: string | Uint8Array | readonly Uint8Array[],
    options: Pick<AtomicWriteOptions, 'durable'> = {},
  ): void {
    if (this.sealer)
      writeFileAtomicSync(`${path}${SEALED_SUFFIX}`, this.sealer.seal(joined(data)), options);
    else writeFileAtomicSync(path, data, options);
  }

  /** {@link writeFileAtomic}, sealed on an encrypted folder. */
  async write(
    path: string,
    data: string | Uint8Array,
    options: AtomicWriteOptions = {},
  ): Promise<void> {
    if (this.sealer)
      await writeFileAtomic(`${path}${SEALED_SUFFIX}`, this.sealer.seal(joined(data)), options);
    else await writeFileAtomic(path, data, options);
  }

  /** Whether the file exists (sealed or not). */
  exists(path: string): boolean {
    return existsSync(this.onDisk(path));
  }

  /** Removes the file (sealed or not); none there is not an error. */
  async remove(path: string): Promise<void> {
    await rm(this.onDisk(path), { force: true });
  }

  /** {@link remove}, without leaving the thread. */
  removeSync(path: string): void {
    rmSync(this.onDisk(path), { force: true });
  }

  /** The plain names of a folder's files (a sealed folder's `X.age` as `X`; temporaries left out). */
  async names(dir: string): Promise<string[]> {
    const names = await readdir(dir).catch(() => [] as string[]);
    return this.plainNames(names);
  }

  /** {@link names}, without leaving the thread. */
  namesSync(dir: string): string[] {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return this.plainNames(names);
  }

  private plainNames(names: string[]): string[] {
    if (!this.sealer) return names;
    return names
      .filter((name) => name.endsWith(SEALED_SUFFIX))
      .map((name) => name.slice(0, -SEALED_SUFFIX.length));
  }
}
