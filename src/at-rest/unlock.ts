import { resolve } from 'node:path';
import { dropSqliteKey, useSqliteKey } from './sqlite-key.js';
import { openFolderKey, type FolderKey, type Unlock } from './folder-key.js';
import { FolderEncryptionError, isEncrypted } from '../bundle/encryption-markers.js';
import { SealedFileError, dropSealer, useSealer } from '../bundle/sealed-files.js';
import { AgeFileError, ageKey, openAge, sealAge } from './age-x25519.js';

/**
 * The keys of the encrypted folders this process has opened, and how it asks for the secret
 * that opens one (the CLI: `CHATGRAPH_PASSPHRASE`, `--passphrase-file`, `--identity` or a
 * prompt). In memory only; the passphrase itself is dropped once the key is open.
 */
const opened = new Map<string, FolderKey>();
let ask: ((dataDir: string) => Promise<Unlock>) | undefined;
const openings = new Map<string, Promise<FolderKey>>();

/** An encrypted folder was opened where nothing can ask for its passphrase. */
export class FolderLockedError extends FolderEncryptionError {}

/** How this process asks for a folder's passphrase or identity, when it first opens one. */
export function setFolderUnlocker(unlocker: (dataDir: string) => Promise<Unlock>): void {
  ask = unlocker;
}

/** A folder's key, just made or opened, kept for the rest of the process. */
export function rememberKey(dataDir: string, key: FolderKey): void {
  opened.set(resolve(dataDir), key);
  useSqliteKey(dataDir, key.sqliteKey);
  const age = ageKey(key.identity);
  useSealer(dataDir, {
    seal: (plain) => sealAge(plain, age),
    open: (sealed, file) => {
      try {
        return openAge(sealed, age);
      } catch (error) {
        if (!(error instanceof AgeFileError)) throw error;
        throw new SealedFileError(`${file}: ${error.message}`);
      }
    },
  });
}

/** The folder is plain again (decrypted): its key, and what opened its files with it, are dropped. */
export function forgetKey(dataDir: string): void {
  opened.delete(resolve(dataDir));
  dropSqliteKey(dataDir);
  dropSealer(dataDir);
}

/**
 * Opens an encrypted folder's key (asked for once) so its store can open; its key, when
 * encrypted. What a killed `encrypt` or `decrypt` left is recovered before (`recoverSwitch`).
 */
export async function prepareFolder(dataDir: string): Promise<FolderKey | undefined> {
  if (!isEncrypted(dataDir)) return undefined;
  const known = opened.get(resolve(dataDir));
  if (known) return known;
  // One unlock however many opens run at once (a search opens the store and its recaller
  // together): one prompt, one scrypt.
  let opening = openings.get(resolve(dataDir));
  if (!opening) {
    opening = unlock(dataDir).finally(() => openings.delete(resolve(dataDir)));
    openings.set(resolve(dataDir), opening);
  }
  return opening;
}

async function unlock(dataDir: string): Promise<FolderKey> {
  if (!ask)
    throw new FolderLockedError(`${dataDir} is encrypted, and nothing here can ask for its key`);
  const key = await openFolderKey(dataDir, await ask(dataDir));
  rememberKey(dataDir, key);
  return key;
}
