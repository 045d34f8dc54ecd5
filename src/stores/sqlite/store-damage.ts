import { statSync } from 'node:fs';
import { StoreConnectionError } from '../store.js';

/**
 * The store file is damaged (SQLite reports corruption): one sentence for the user, naming the
 * way out. A kind of {@link StoreConnectionError}: the store cannot be used as it is.
 */
export class StoreDamagedError extends StoreConnectionError {
  constructor(
    /** The damaged store file. */
    readonly file: string,
    detail: string,
  ) {
    super(
      `the store ${file} is damaged (${detail}): run "chatgraph reindex" to move it aside and rebuild it from the bundle`,
    );
  }
}

/** The damage a store file of zero bytes is reported as. */
export const EMPTY_FILE = 'it is an empty file of 0 bytes';

/** Whether the file exists and holds no bytes at all (no SQLite header, so not a store). */
export function isEmptyFile(file: string): boolean {
  try {
    return statSync(file).size === 0;
  } catch {
    return false;
  }
}

function isNotADatabase(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_NOTADB';
}

/** Whether an error is SQLite saying its file is damaged or not a database at all. */
export function isStoreDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string')
    return code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB';
  // The same, wrapped in a store's own error (a search that could not be run) with its text.
  return error instanceof Error && DAMAGE_TEXT.test(error.message);
}

// SQLite's messages for SQLITE_CORRUPT and SQLITE_NOTADB, and FTS5's when the pages of its
// shadow tables are damaged (seen: "vtable constructor failed: message_fts").
const DAMAGE_TEXT =
  /database disk image is malformed|file is not a database|vtable constructor failed/;

/**
 * The folder's encryption was switched under a process that had it open (another process ran
 * `encrypt` or `decrypt`, or is running it): its store reads as "not a database" without the
 * key, or with a key it no longer has, and is not damaged. One sentence, naming what to do.
 */
export class FolderSwitchedError extends StoreConnectionError {}

// What SQLite says of a file it cannot read as a database at all (a key missing or wrong).
const NOT_A_DATABASE = /file is not a database/;

/**
 * Why a store reads as no database when its folder's encryption was switched under this
 * process (undefined: it was not); the folder that opened the store knows, and says.
 */
export type SwitchedUnder = () => string | undefined;

/** The error as a {@link StoreDamagedError} when it is damage, else as it is. */
export function asStoreDamage(
  error: unknown,
  file: string,
  switchedUnder?: SwitchedUnder,
): unknown {
  if (!isStoreDamage(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  const switched =
    NOT_A_DATABASE.test(message) || isNotADatabase(error) ? switchedUnder?.() : undefined;
  if (switched !== undefined) return new FolderSwitchedError(switched);
  return new StoreDamagedError(file, DAMAGE_TEXT.exec(message)?.[0] ?? message);
}

/**
 * The store, with damage found by any of its methods (a page read mid-query) reported as a
 * {@link StoreDamagedError} rather than SQLite's message, so every command says the same.
 */
export function reportingDamage<T extends object>(
  store: T,
  file: string,
  switchedUnder?: SwitchedUnder,
): T {
  return new Proxy(store, {
    get(target, property, receiver): unknown {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]): unknown => {
        try {
          const result: unknown = Reflect.apply(value, target, args);
          // The writer an import writes through is guarded the same way.
          if (property === 'writer' && typeof result === 'object' && result !== null)
            return reportingDamage(result, file, switchedUnder);
          return result instanceof Promise
            ? result.catch((error: unknown) => {
                throw asStoreDamage(error, file, switchedUnder);
              })
            : result;
        } catch (error) {
          throw asStoreDamage(error, file, switchedUnder);
        }
      };
    },
  });
}
