import { existsSync, readdirSync, rmSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { writeFileAtomic, writeFileAtomicSync, type AtomicWriteOptions } from './atomic-write.js';
import { FolderEncryptionError } from './encryption-markers.js';
import { readRegularFile, readRegularFileSync } from '../read/regular-file.js';

/**
 * The files of a data folder, read and written through one door so that an encrypted folder's
 * are sealed (docs/encryption.md): once its key is open, `X` is kept as the age file `X.age`,
 * and every read opens it again, in memory. A plain folder's files are read and written as they
 * are. Callers name the plain path either way; only this module knows the difference.
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

const sealers = new Map<string, Sealer>();

/** Files under `dataDir` are sealed with `sealer` from now on (its key was just opened or made). */
export function useSealer(dataDir: string, sealer: Sealer): void {
  sealers.set(resolve(dataDir), sealer);
}

/** Files under `dataDir` are plain again (it was just decrypted). */
export function dropSealer(dataDir: string): void {
  sealers.delete(resolve(dataDir));
}

function sealerFor(path: string): Sealer | undefined {
  if (sealers.size === 0) return undefined;
  const full = resolve(path);
  for (const [root, sealer] of sealers) if (full.startsWith(root + sep)) return sealer;
  return undefined;
}

/** The file that holds `path`'s content on disk: itself, or its sealed form. */
export function onDisk(path: string): string {
  return sealerFor(path) ? `${path}${SEALED_SUFFIX}` : path;
}

/** Whether `path` is sealed (its folder is encrypted and unlocked). */
export function isSealed(path: string): boolean {
  return sealerFor(path) !== undefined;
}

/** A plain read that found nothing where a sealed file is: say so rather than answer "none". */
function missing(path: string, error: unknown): never {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT' && existsSync(`${path}${SEALED_SUFFIX}`))
    throw new SealedFileError(`${path} is encrypted, and its folder's key was not opened`);
  throw error;
}

/** The content of `bytes` read from {@link onDisk}`(path)`: opened when sealed. */
export function plainBytes(path: string, bytes: Buffer): Buffer {
  const sealer = sealerFor(path);
  return sealer ? sealer.open(bytes, path) : bytes;
}

/**
 * `readFileSync(path)`, through the seal; a regular file only, of a bounded size (a FIFO or a
 * link to a device planted in a bundle is a `NotARegularFileError`, never a read that hangs).
 */
export function readDataFileSync(path: string): Buffer {
  try {
    return plainBytes(path, readRegularFileSync(onDisk(path)));
  } catch (error) {
    return missing(path, error);
  }
}

/** `readFile(path)`, through the seal; a regular file only, as {@link readDataFileSync}. */
export async function readDataFile(path: string): Promise<Buffer> {
  try {
    return plainBytes(path, await readRegularFile(onDisk(path)));
  } catch (error) {
    return missing(path, error);
  }
}

/** A file's text through the seal, or undefined when there is no such file. */
export function readDataTextSync(path: string): string | undefined {
  try {
    return readDataFileSync(path).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** A file's text through the seal, or undefined when there is no such file. */
export async function readDataText(path: string): Promise<string | undefined> {
  try {
    return (await readDataFile(path)).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function joined(data: string | Uint8Array | readonly Uint8Array[]): Uint8Array {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return data instanceof Uint8Array ? data : Buffer.concat(data);
}

/** {@link writeFileAtomicSync}, sealed on an encrypted folder (the temporary file holds the sealed bytes). */
export function writeDataFileSync(
  path: string,
  data: string | Uint8Array | readonly Uint8Array[],
  options: Pick<AtomicWriteOptions, 'durable'> = {},
): void {
  const sealer = sealerFor(path);
  if (sealer) writeFileAtomicSync(`${path}${SEALED_SUFFIX}`, sealer.seal(joined(data)), options);
  else writeFileAtomicSync(path, data, options);
}

/** {@link writeFileAtomic}, sealed on an encrypted folder. */
export async function writeDataFile(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const sealer = sealerFor(path);
  if (sealer) await writeFileAtomic(`${path}${SEALED_SUFFIX}`, sealer.seal(joined(data)), options);
  else await writeFileAtomic(path, data, options);
}

/** Whether the file exists (sealed or not). */
export function dataFileExists(path: string): boolean {
  return existsSync(onDisk(path));
}

/** Removes the file (sealed or not); none there is not an error. */
export async function removeDataFile(path: string): Promise<void> {
  await rm(onDisk(path), { force: true });
}

/** {@link removeDataFile}, without leaving the thread. */
export function removeDataFileSync(path: string): void {
  rmSync(onDisk(path), { force: true });
}

/** The plain names of a folder's files (a sealed folder's `X.age` as `X`; temporaries left out). */
export async function dataFileNames(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return plainNames(dir, names);
}

/** {@link dataFileNames}, without leaving the thread. */
export function dataFileNamesSync(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return plainNames(dir, names);
}

function plainNames(dir: string, names: string[]): string[] {
  if (!sealerFor(`${dir}${sep}x`)) return names;
  return names
    .filter((name) => name.endsWith(SEALED_SUFFIX))
    .map((name) => name.slice(0, -SEALED_SUFFIX.length));
}
