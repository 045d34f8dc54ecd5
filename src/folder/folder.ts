import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { recoverLocked } from '../at-rest/folder-switch.js';
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

/** How a folder is opened: its store, and how its writers wait. */
export interface FolderOptions {
  /** The store is this Neo4j server rather than the folder's embedded one. */
  neo4j?: Neo4jTarget | undefined;
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
 * A data folder opened: where its files are (`layout`), its store's place, and its one write
 * sequence. Made once per folder by whoever opens it (the `DataFolder`); the code below takes
 * this handle, never the folder's path.
 */
export class Folder {
  readonly dir: string;
  readonly layout: FolderLayout;
  private readonly writing = new AsyncLocalStorage<WriteSession>();

  constructor(
    dir: string,
    private readonly options: FolderOptions = {},
  ) {
    this.dir = resolve(dir);
    this.layout = layoutOf(this.dir);
  }

  /** The Neo4j server the folder's store is, if it is one. */
  get neo4j(): Neo4jTarget | undefined {
    return this.options.neo4j;
  }

  /**
   * Opens the folder's store (read-only: at once, and it must exist). A switch of its
   * encryption that was cut off is finished first.
   */
  async openStore(options: { readonly?: boolean } = {}): Promise<Store> {
    if (!this.neo4j) await this.recoverSwitch();
    return openStore({ dir: this.dir, file: this.layout.store, neo4j: this.neo4j }, options);
  }

  /** Finishes or drops what a killed `encrypt` or `decrypt` left, under the lock (a running one is waited for). */
  private async recoverSwitch(): Promise<void> {
    const { encrypt, decrypt } = this.layout.staging;
    if (!existsSync(encrypt) && !existsSync(decrypt)) return;
    await this.write(
      () => {
        recoverLocked(this.dir);
        return Promise.resolve();
      },
      { ownsKey: true },
    );
  }

  /**
   * The folder's one write sequence: take the write lock (waiting as `wait`, else the folder,
   * says), run `work`, close the store if it opened one, release the lock, whatever `work`
   * throws. Every verb that changes the folder runs inside it. A write inside a write (of this
   * folder, in the same async context) is part of it: the same lock, the same store.
   */
  async write<T>(work: (writing: Writing) => Promise<T>, options: WriteOptions = {}): Promise<T> {
    const current = this.writing.getStore();
    if (current) return work(current);
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
      {
        ...lockOptions({ ...this.options.wait, ...definedOf(options) }),
        ...(options.ownsKey === true ? { encryptedFolder: true } : {}),
      },
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
