import { constants, createWriteStream } from 'node:fs';
import { copyFile, open, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Entry } from './entry.js';
import { makeTempFolder, removeTempFolder } from './temp-folders.js';

/** A private, consistent copy of an agent's SQLite store, and how to remove it. */
export interface SqliteSnapshot {
  /** The copy's main file, to open. */
  file: string;
  /** The copy holds a journal that SQLite must roll back (a writer died mid-commit): open it writable. */
  hotJournal: boolean;
  close(): Promise<void>;
}

/** The store kept changing under every copy: the agent is writing it now. */
export class StoreBusyError extends Error {}

const ATTEMPTS = 5;

/**
 * Copies a store (its main file, and the `-wal` or `-journal` beside it) into a folder of our
 * own, so reading it never touches the agent's files: a read-only connection on the original
 * would still write its `-shm` (read marks, a rebuilt WAL index) and create `-wal`/`-shm` when
 * they are missing, and its locks would hold up the agent's writes. The copy sees every
 * committed row, those still in the `-wal` too (SQLite replays them into the copy). A copy is
 * kept only when the store did not change while it was taken: the WAL header (its salts change
 * when the agent restarts the log) and the main file's change counter read before and after
 * must agree, else it is taken again. A zipped store (no file on disk) is spooled.
 */
export async function snapshotStore(entry: Entry): Promise<SqliteSnapshot> {
  // Removed on a signal too, and swept after a kill -9 (see makeTempFolder).
  const dir = await makeTempFolder('sqlite');
  const file = join(dir, 'store.db');
  const close = (): Promise<void> => removeTempFolder(dir);
  try {
    if (entry.localFile === undefined) {
      await pipeline(await entry.open(), createWriteStream(file));
      return { file, hotJournal: false, close };
    }
    const source = entry.localFile;
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const before = await storeState(source);
      await copyFile(source, file, constants.COPYFILE_FICLONE);
      for (const suffix of ['-wal', '-journal']) {
        await rm(file + suffix, { force: true });
        if (await nonEmpty(source + suffix))
          await copyFile(source + suffix, file + suffix, constants.COPYFILE_FICLONE).catch(
            (error: unknown) => {
              // Gone between the look and the copy: the agent finished its write.
              if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
            },
          );
      }
      const after = await storeState(source);
      const copied = await storeState(file);
      if (before === after && after === copied)
        return { file, hotJournal: await nonEmpty(file + '-journal'), close };
      await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
    }
    throw new StoreBusyError(
      `it changed under each of ${ATTEMPTS} copies (its agent is writing it now); import it again when the agent is idle`,
    );
  } catch (error) {
    await close();
    throw error;
  }
}

// What must not change while a copy is taken: the main file's change counter (bytes 24–27 of
// its header, bumped by every commit in rollback mode and by a checkpoint's) and the WAL header
// (its checkpoint sequence and salts, bytes 12–23, new at each restart of the log). An empty
// WAL (the agent has the store open and wrote nothing since a truncating checkpoint) is no WAL:
// it is not copied, and the copy must not differ for it.
async function storeState(file: string): Promise<string> {
  const hex = (bytes: Buffer | undefined): string =>
    bytes !== undefined && bytes.length > 0 ? bytes.toString('hex') : '-';
  const main = await readBytes(file, 24, 4);
  const wal = await readBytes(`${file}-wal`, 12, 12);
  const journal = await nonEmpty(`${file}-journal`);
  return `${hex(main)}:${hex(wal)}:${journal ? 'j' : '-'}`;
}

async function readBytes(
  file: string,
  offset: number,
  length: number,
): Promise<Buffer | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function nonEmpty(file: string): Promise<boolean> {
  try {
    return (await stat(file)).size > 0;
  } catch {
    return false;
  }
}

/**
 * What tells, at the cost of three `stat`s and two small reads, whether a store changed: its
 * main file's, WAL's and journal's sizes, times and inodes, the main file's change counter and
 * the WAL header (see `storeState`). Equal stamps: nothing was committed since (a `DELETE`
 * too moves them, where a table's `MAX(updated)` would not).
 */
export async function storeStamp(file: string): Promise<string> {
  const stats = await Promise.all(
    ['', '-wal', '-journal'].map(async (suffix) => {
      const info = await stat(file + suffix).catch(() => undefined);
      return info ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : '-';
    }),
  );
  return `${stats.join('/')}#${await storeState(file)}`;
}

/**
 * A private copy of a store kept between reads (`watch` polls one), brought up to the store by
 * {@link refresh}: the main file is copied again only when it changed (a checkpoint, a write in
 * rollback mode), its WAL or journal every time; so following a store of gigabytes written a
 * little at a time costs what its WAL holds, not its size. The copy is read as `snapshotStore`'s
 * is: never the agent's own files.
 */
export class LiveSnapshot {
  private mainCopied: string | undefined;

  private constructor(
    private readonly dir: string,
    /** The copy's main file, to open once refreshed. */
    readonly file: string,
  ) {}

  static async create(): Promise<LiveSnapshot> {
    // Removed on a signal too, and swept after a kill -9 (see makeTempFolder).
    const dir = await makeTempFolder('sqlite');
    return new LiveSnapshot(dir, join(dir, 'store.db'));
  }

  /**
   * Brings the copy up to `source`; resolves with whether the copy holds a journal to roll back
   * (open it writable then). Throws `StoreBusyError` when the store changed under every try.
   */
  async refresh(source: string): Promise<{ hotJournal: boolean }> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const before = await storeStamp(source);
      const main = before.split('/')[0];
      if (main !== this.mainCopied) await copyFile(source, this.file, constants.COPYFILE_FICLONE);
      // The copy's WAL index is made again from the WAL copied (SQLite rebuilds a missing one).
      await rm(`${this.file}-shm`, { force: true });
      for (const suffix of ['-wal', '-journal']) {
        await rm(this.file + suffix, { force: true });
        if (await nonEmpty(source + suffix))
          await copyFile(source + suffix, this.file + suffix, constants.COPYFILE_FICLONE).catch(
            (error: unknown) => {
              if ((error as { code?: unknown }).code !== 'ENOENT') throw error;
            },
          );
      }
      const after = await storeStamp(source);
      if (before === after && (await storeState(this.file)) === before.split('#')[1]) {
        this.mainCopied = main;
        return { hotJournal: await nonEmpty(`${this.file}-journal`) };
      }
      this.mainCopied = undefined;
      await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)));
    }
    throw new StoreBusyError(
      `it changed under each of ${ATTEMPTS} copies (its agent is writing it now); read again at its next change`,
    );
  }

  async close(): Promise<void> {
    await removeTempFolder(this.dir);
  }
}
