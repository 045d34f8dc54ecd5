import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  statSync,
  type Stats,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * What kind of thing a path names when it is not a regular file (`a FIFO`, `a character
 * device`), or undefined for a regular file or a path that does not exist. Reading a FIFO or a
 * device never ends (or never starts), so a user-named path is checked before it is opened.
 */
export function notRegularKind(path: string): string | undefined {
  let info: Stats;
  try {
    info = statSync(path);
  } catch {
    return undefined;
  }
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** A path that was to be read is not a regular file (a FIFO, a device, a folder): never read. */
export class NotARegularFileError extends Error {
  constructor(
    readonly path: string,
    /** What it is instead (`a FIFO (named pipe)`, `a character device`). */
    readonly kind: string,
  ) {
    super(`${path} is ${kind}, not a regular file: chatgraph reads only regular files`);
    this.name = 'NotARegularFileError';
  }
}

/** A file too large to read whole into memory. */
export class FileTooLargeError extends Error {
  constructor(
    readonly path: string,
    size: number,
    limit: number,
  ) {
    super(
      `${path} is ${size.toLocaleString('en-US')} bytes, more than the ${limit.toLocaleString('en-US')} chatgraph reads of one file at once`,
    );
    this.name = 'FileTooLargeError';
  }
}

/**
 * The most a file is read whole into memory (a conversation file, the memory store): past it
 * a JavaScript string could not hold the text anyway.
 */
export const MAX_WHOLE_FILE_BYTES = 512 * 1024 * 1024;

// Opened without waiting for a writer (a FIFO's open blocks otherwise) or taking a terminal.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Opens a file for reading only if it is a regular file (followed through a link: the file it
 * names is checked), told by the open file itself, so nothing can be swapped in between; a
 * FIFO, a device or a folder is a {@link NotARegularFileError}, and nothing of it is read.
 */
export async function openRegular(path: string): Promise<FileHandle> {
  const handle = await open(path, OPEN_FLAGS);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new NotARegularFileError(path, kindOf(info));
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** A regular file's bytes, whole (see {@link openRegular}), at most `limit` of them. */
export async function readRegularFile(path: string, limit = MAX_WHOLE_FILE_BYTES): Promise<Buffer> {
  const handle = await openRegular(path);
  try {
    const { size } = await handle.stat();
    if (size > limit) throw new FileTooLargeError(path, size, limit);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** {@link readRegularFile}, without leaving the thread. */
export function readRegularFileSync(path: string, limit = MAX_WHOLE_FILE_BYTES): Buffer {
  const fd = openSync(path, OPEN_FLAGS);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new NotARegularFileError(path, kindOf(info));
    if (info.size > limit) throw new FileTooLargeError(path, info.size, limit);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
