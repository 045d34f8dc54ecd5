import type { Unlock } from './folder-key.js';
import type { FolderKey } from './folder-key.js';
import { FolderEncryptionError } from '../bundle/encryption-markers.js';
import { SealedFileError, type Sealer } from '../bundle/sealed-files.js';
import { AgeFileError, ageKey, openAge, sealAge } from './age-x25519.js';

/** An encrypted folder was opened where nothing can ask for its passphrase. */
export class FolderLockedError extends FolderEncryptionError {}

/** How a folder's secret is asked for when its key is first needed (the CLI: a prompt, a file, the environment). */
export type Unlocker = (dir: string) => Promise<Unlock>;

/** How a folder's files are sealed and opened with its key (age, to the folder's identity). */
export function sealerOf(key: FolderKey): Sealer {
  const age = ageKey(key.identity);
  return {
    seal: (plain) => sealAge(plain, age),
    open: (sealed, file) => {
      try {
        return openAge(sealed, age);
      } catch (error) {
        if (!(error instanceof AgeFileError)) throw error;
        throw new SealedFileError(`${file}: ${error.message}`);
      }
    },
  };
}
