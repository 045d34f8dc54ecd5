import { existsSync } from 'node:fs';
import type { Store } from '../stores/store.js';
import { storeFile } from './data-dir.js';
import { openStore, type StoreChoice } from './open-store.js';
import { withWriteLock, type LockHolder, type WriteLockOptions } from './write-lock.js';

/** How a writer waits for another: who to tell, and for how long at most (no limit unless given). */
export interface Waiting {
  onWait?: ((holder: LockHolder) => void) | undefined;
  maxWaitMilliseconds?: number | undefined;
}

/**
 * The data folder's one write sequence: take the write lock, open the store, run `work`, close
 * the store, release the lock (whatever `work` throws). Every verb that changes the folder and
 * its store goes through here, so none can differ in the order or forget a close.
 */
export function withLockedStore<T>(
  choice: StoreChoice,
  work: (store: Store) => Promise<T>,
  waiting: Waiting = {},
): Promise<T> {
  return withWriteLock(choice.dataDir, () => openedFor(choice, work), lockOptions(waiting));
}

/**
 * {@link withLockedStore}, except that an embedded store not made yet is not made: `work`
 * gets none (a deletion from a bundle that was never indexed).
 */
export function withLockedStoreIfPresent<T>(
  choice: StoreChoice,
  work: (store: Store | undefined) => Promise<T>,
  waiting: Waiting = {},
): Promise<T> {
  return withWriteLock(
    choice.dataDir,
    () =>
      choice.neo4j || existsSync(storeFile(choice.dataDir))
        ? openedFor(choice, work)
        : work(undefined),
    lockOptions(waiting),
  );
}

async function openedFor<T>(choice: StoreChoice, work: (store: Store) => Promise<T>): Promise<T> {
  const store = await openStore({ dataDir: choice.dataDir, neo4j: choice.neo4j });
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** A writer's waiting as the lock takes it (absent keys left out). */
export function lockOptions(waiting: Waiting): WriteLockOptions {
  return {
    ...(waiting.onWait ? { onWait: waiting.onWait } : {}),
    ...(waiting.maxWaitMilliseconds !== undefined
      ? { maxWaitMilliseconds: waiting.maxWaitMilliseconds }
      : {}),
  };
}
