import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The file that says a data folder is encrypted (no secret in it). Its own module, a leaf, so
 * the write lock can refuse writers on an encrypted folder without importing the encryption.
 */
export const ENCRYPTION_FILE = 'encryption.json';

/** The folder's age identity, itself age-encrypted to the passphrase or the person's identity. */
export const KEY_FILE = 'key.age';

/** Where each direction writes the folder's new form before the switch. */
export const STAGING = { encrypt: '.encrypting', decrypt: '.decrypting' } as const;

/** Whether the data folder is encrypted (see docs/encryption.md). */
export function isEncrypted(dataDir: string): boolean {
  return existsSync(join(dataDir, ENCRYPTION_FILE));
}

/**
 * Every refusal of encryption at rest the person can act on (a wrong passphrase, a folder
 * encrypted already): one line, exit code 2 in the CLI.
 */
export class FolderEncryptionError extends Error {}

/** A verb that cannot yet work on an encrypted folder was asked to. */
export class FolderEncryptedError extends FolderEncryptionError {
  constructor(dataDir: string, what = 'this command cannot write to an encrypted folder yet') {
    super(`${dataDir} is encrypted and ${what}: run "chatgraph decrypt" first`);
  }
}
