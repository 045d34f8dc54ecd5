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
// (its checkpoint sequence and salts, bytes 12–23, new at each restart of the log).
async function storeState(file: string): Promise<string> {
  const main = await readBytes(file, 24, 4);
  const wal = await readBytes(`${file}-wal`, 12, 12);
  const journal = await nonEmpty(`${file}-journal`);
  return `${main?.toString('hex') ?? '-'}:${wal?.toString('hex') ?? '-'}:${journal ? 'j' : '-'}`;
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
