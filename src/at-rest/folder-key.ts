import { hkdfSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { FolderEncryptionError } from '../bundle/encryption-markers.js';

// age-encryption (and @noble's curves and post-quantum code beneath it) is loaded only when a
// folder key is made or opened: loading it cost every command about 60 ms at start, encrypted
// folder or not.
const age = (): Promise<typeof import('age-encryption')> => import('age-encryption');
const scrypt = (): Promise<typeof import('./native-scrypt.js')> => import('./native-scrypt.js');

/** What opens a folder's key: the person's passphrase, or their age identity file's text (age-keygen's). */
export type Unlock = { passphrase: string } | { identity: string };

/** The folder's own key, unwrapped: in memory only, never written unencrypted. */
export interface FolderKey {
  /** The folder's age X25519 identity: every bundle file is encrypted to its recipient. */
  identity: string;
  recipient: string;
  /** The SQLCipher raw key (64 hex digits) of the folder's SQLite files, derived from `identity`. */
  sqliteKey: string;
}

/** The passphrase or identity given does not open this folder's key. */
export class WrongKeyError extends FolderEncryptionError {}

/** A key file opened to a secret key in the form age writes one. */
const IdentityText = z
  .string()
  .trim()
  .regex(/^AGE-SECRET-KEY-1[0-9A-Z]+$/, 'not an age identity');

async function keyOf(identity: string): Promise<FolderKey> {
  // HKDF from the identity, so one secret (the one age tools use) unlocks both kinds of file.
  const derived = hkdfSync('sha256', identity, 'chatgraph', 'sqlite index key', 32);
  return {
    identity,
    recipient: await (await age()).identityToRecipient(identity),
    sqliteKey: Buffer.from(derived).toString('hex'),
  };
}

/** The first `AGE-SECRET-KEY-1…` line of an identity file as age-keygen writes one (comments beside). */
function identityFromFile(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim().startsWith('AGE-SECRET-KEY-1'));
  const parsed = IdentityText.safeParse(line ?? '');
  if (!parsed.success) throw new WrongKeyError('the identity file holds no AGE-SECRET-KEY-1 line');
  return parsed.data;
}

/**
 * A new folder key, and its wrapped form for the folder's key file: the identity encrypted with the
 * passphrase (age's scrypt recipient, work factor 2^18 as the age CLI's) or to the person's own
 * identity, so `age -d` opens it as it would any file.
 */
export async function newFolderKey(
  unlock: Unlock,
): Promise<{ key: FolderKey; wrapped: Uint8Array }> {
  const { Encrypter, generateIdentity, identityToRecipient } = await age();
  const { NativeScryptRecipient } = await scrypt();
  const key = await keyOf(await generateIdentity());
  const encrypter = new Encrypter();
  if ('passphrase' in unlock) encrypter.addRecipient(new NativeScryptRecipient(unlock.passphrase));
  else encrypter.addRecipient(await identityToRecipient(identityFromFile(unlock.identity)));
  return { key, wrapped: await encrypter.encrypt(`${key.identity}\n`) };
}

/**
 * The folder's key, opened from its key file with the passphrase or identity (a
 * {@link WrongKeyError}, naming the folder, when it does not).
 */
export async function openFolderKey(
  keyFile: string,
  unlock: Unlock,
  folder: string,
): Promise<FolderKey> {
  const wrapped = await readFile(keyFile);
  const { Decrypter } = await age();
  const { NativeScryptIdentity } = await scrypt();
  const decrypter = new Decrypter();
  if ('passphrase' in unlock) decrypter.addIdentity(new NativeScryptIdentity(unlock.passphrase));
  else decrypter.addIdentity(identityFromFile(unlock.identity));
  let text: string;
  try {
    text = await decrypter.decrypt(wrapped, 'text');
  } catch {
    throw new WrongKeyError(
      'passphrase' in unlock
        ? `wrong passphrase for ${folder}`
        : `that identity does not open ${folder}`,
    );
  }
  return keyOf(IdentityText.parse(text));
}
