import type { SearchHere } from '../stores/sqlite/search-here.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openFolderKey, type FolderKey } from '../at-rest/folder-key.js';
import { recoverLocked } from '../at-rest/folder-switch.js';
import { FolderLockedError, sealerOf, type Unlocker } from '../at-rest/unlock.js';
import { Bundle } from '../bundle/bundle.js';
import { SealedFiles } from '../bundle/sealed-files.js';
import type { Neo4jTarget } from '../stores/neo4j/neo4j-target.js';
import type { Store } from '../stores/store.js';
import { layoutOf, type FolderLayout } from './layout.js';
import { openStore } from './open-store.js';
import { withWriteLock, type LockHolder, type WriteLockOptions } from './write-lock.js';

/** How a writer waits for another: who to tell, and for how long at most. */
export interface Waiting {
  /** Called once when another writer holds the folder and this one starts waiting. */
  onWait?: ((holder: LockHolder) => void) | undefined;
  /** The longest to wait, in milliseconds, before a `WriteLockBusyError` (no limit unless given). */
  maxMilliseconds?: number | undefined;
}

/** How a folder is opened: its store, how its key is asked for, and how its writers wait. */
export interface FolderOptions {
  /** The store is this Neo4j server rather than the folder's embedded one. */
  neo4j?: Neo4jTarget | undefined;
  /** How an encrypted folder's passphrase or identity is asked for, once, when first needed. */
  unlock?: Unlocker | undefined;
  /** How every writer of this folder waits for another, unless a verb says otherwise. */
  wait?: Waiting | undefined;
}

/** How one write runs: its waiting (over the folder's), and what it brings. */
export interface WriteOptions extends Waiting {
  /** A store its writer keeps open across many writes (a follower's): used, and left open. */
  kept?: Store | undefined;
  /** The write opens or drops the folder's key itself (encrypt, decrypt): none is asked for. */
  ownsKey?: boolean | undefined;
}

/** What a write's work is given: the store, opened when first asked for, closed by `write`. */
export interface Writing {
  store(): Promise<Store>;
  /** The store, unless it is an embedded one not made yet (which is then not made). */
  storeIfMade(): Promise<Store | undefined>;
}

/**
 * A data folder opened: where its files are (`layout`), the door they are read and written
 * through (`files`, sealed with the folder's key once it is open), its bundle with what a
 * long-lived reader keeps of it, its store's place, and its one write sequence. Made once per
 * folder by whoever opens it (the `DataFolder`); the code below takes this handle, never the
 * folder's path, and nothing of it is kept anywhere else in the process: two folders opened
 * side by side, each with its own key, never meet.
 */
export class Folder {
  readonly dir: string;
  readonly layout: FolderLayout;
  /** The folder's files, through its seal. */
  readonly files = new SealedFiles();
  /** The folder's PAM bundle (the record), read and written through {@link files}. */
  readonly bundle: Bundle;
  private key: FolderKey | undefined;
  private opening: Promise<void> | undefined;
  private readonly writing = new AsyncLocalStorage<WriteSession>();

  constructor(
    dir: string,
    private readonly options: FolderOptions = {},
  ) {
    this.dir = resolve(dir);
    this.layout = layoutOf(this.dir);
    this.bundle = new Bundle(this.layout.bundle, this.files);
  }

  /** The Neo4j server the folder's store is, if it is one. */
  get neo4j(): Neo4jTarget | undefined {
    return this.options.neo4j;
  }

  /** Whether the folder is encrypted at rest (its marker says so; no secret in it). */
  get encrypted(): boolean {
    return existsSync(this.layout.encryption);
  }

  /** The SQLCipher key of the folder's SQLite files, once its key is open (none when plain). */
  get sqliteKey(): string | undefined {
    return this.key?.sqliteKey;
  }

  /**
   * Opens an encrypted folder's key, asking for its secret once however many callers want it
   * at once (one prompt, one scrypt); nothing for a plain folder or a key open already.
   */
  async unlock(): Promise<void> {
    if (this.key || !this.encrypted) return;
    this.opening ??= this.openKey().finally(() => {
      this.opening = undefined;
    });
    await this.opening;
  }

  private async openKey(): Promise<void> {
    const ask = this.options.unlock;
    if (!ask)
      throw new FolderLockedError(`${this.dir} is encrypted, and nothing here can ask for its key`);
    this.useKey(await openFolderKey(this.layout, await ask(this.dir)));
  }

  /** The folder's key, just made or opened: its files are sealed with it from now on. */
  useKey(key: FolderKey): void {
    this.key = key;
    this.files.use(sealerOf(key));
  }

  /** The folder is plain again (decrypted): its key, and what sealed its files with it, dropped. */
  dropKey(): void {
    this.key = undefined;
    this.files.use(undefined);
  }

  /**
   * Opens the folder's store (read-only: at once, and it must exist). A switch of its
   * encryption that was cut off is finished first, and an encrypted folder's key opened.
   */
  async openStore(options: { readonly?: boolean; searchHere?: SearchHere } = {}): Promise<Store> {
    if (!this.neo4j) {
      await this.recoverSwitch();
      await this.unlock();
    }
    const key = this.sqliteKey;
    return openStore(
      {
        dir: this.dir,
        file: this.layout.store,
        bundle: this.layout.bundle.dir,
        neo4j: this.neo4j,
        key,
        switchedUnder: () => this.switchedUnder(key !== undefined),
      },
      { ...options, vectorIndexFile: this.layout.vectorIndex },
    );
  }

  /**
   * Why a store opened with a key (or without) reads as no database now, when the folder's
   * encryption was switched under this process by another (`encrypt` or `decrypt`, done or
   * running); undefined when it was not (then the store is damaged).
   */
  private switchedUnder(keyed: boolean): string | undefined {
    const { encrypt, decrypt } = this.layout.staging;
    if (existsSync(encrypt) || existsSync(decrypt))
      return `${this.dir} is being encrypted or decrypted right now (its store is not damaged): try again when that is done`;
    if (this.encrypted && !keyed)
      return `${this.dir} was encrypted after this process opened it (its store is not damaged): start the command or server again, and it asks for the passphrase`;
    if (!this.encrypted && keyed)
      return `${this.dir} was decrypted after this process opened it (its store is not damaged): start the command or server again`;
    return undefined;
  }

  /** Finishes or drops what a killed `encrypt` or `decrypt` left, under the lock (a running one is waited for). */
  private async recoverSwitch(): Promise<void> {
    const { encrypt, decrypt } = this.layout.staging;
    if (!existsSync(encrypt) && !existsSync(decrypt)) return;
    await this.write(
      () => {
        recoverLocked(this.layout);
        return Promise.resolve();
      },
      { ownsKey: true },
    );
  }

  /**
   * The folder's one write sequence: open an encrypted folder's key (before the lock: a prompt
   * must not hold up other writers), take the write lock (waiting as `options`, else the
   * folder, says), run `work`, close the store if it opened one, release the lock, whatever
   * `work` throws. Every verb that changes the folder runs inside it. A write inside a write (of
   * this folder, in the same async context) is part of it: the same lock, the same store.
   */
  async write<T>(work: (writing: Writing) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    const current = this.writing.getStore();
    if (current) return work(current);
    if (options.ownsKey !== true) await this.unlock();
    return withWriteLock(
      this.layout,
      async () => {
        const session = new WriteSession(this, options.kept);
        try {
          return await this.writing.run(session, () => work(session));
        } finally {
          await session.close();
        }
      },
      lockOptions({ ...this.options.wait, ...definedOf(options) }),
    );
  }
}

/** The store of one write: opened on first use, closed when the write ends. */
class WriteSession implements Writing {
  private opened: Promise<Store> | undefined;

  constructor(
    private readonly folder: Folder,
    private readonly kept?: Store,
  ) {
    if (kept) this.opened = Promise.resolve(kept);
  }

  store(): Promise<Store> {
    this.opened ??= this.folder.openStore();
    return this.opened;
  }

  async storeIfMade(): Promise<Store | undefined> {
    if (this.opened || this.folder.neo4j || existsSync(this.folder.layout.store))
      return this.store();
    return undefined;
  }

  async close(): Promise<void> {
    const opened = this.kept ? undefined : this.opened;
    this.opened = undefined;
    // A store that failed to open has nothing to close (its error is the write's).
    const store = await opened?.catch(() => undefined);
    await store?.close();
  }
}

/** A verb's own way of waiting (its `onWait`), over the folder's. */
export function waitingOf(options: {
  onWait?: ((holder: LockHolder) => void) | undefined;
}): Waiting {
  return options.onWait ? { onWait: options.onWait } : {};
}

function definedOf(wait: Waiting): Waiting {
  return {
    ...(wait.onWait ? { onWait: wait.onWait } : {}),
    ...(wait.maxMilliseconds !== undefined ? { maxMilliseconds: wait.maxMilliseconds } : {}),
  };
}

/** A writer's waiting as the lock takes it (absent keys left out). */
function lockOptions(waiting: Waiting): WriteLockOptions {
  return {
    ...(waiting.onWait ? { onWait: waiting.onWait } : {}),
    ...(waiting.maxMilliseconds !== undefined
      ? { maxWaitMilliseconds: waiting.maxMilliseconds }
      : {}),
  };
}
