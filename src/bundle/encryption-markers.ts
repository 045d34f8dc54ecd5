import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The file that says a data folder is encrypted (no secret in it). Its own module, a leaf, so
 * the bundle and the write lock can tell an encrypted folder without importing the encryption.
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
