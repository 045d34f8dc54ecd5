import { hkdfSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
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

/**
 * The first `AGE-SECRET-KEY-1…` line of an identity file as age-keygen writes one (comments
 * beside), checked whole: age's own error for a changed character quotes the key, so it is
 * never passed on.
 */
async function identityFromFile(text: string): Promise<string> {
  const line = text.split(/\r?\n/).find((l) => l.trim().startsWith('AGE-SECRET-KEY-1'));
  const parsed = IdentityText.safeParse(line ?? '');
  if (!parsed.success) throw new WrongKeyError('the identity file holds no AGE-SECRET-KEY-1 line');
  try {
    await (await age()).identityToRecipient(parsed.data);
  } catch {
    throw new WrongKeyError(
      'the identity file’s AGE-SECRET-KEY-1 line is not a valid age identity (its checksum does not match: a character changed or missing?)',
    );
  }
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
  else encrypter.addRecipient(await identityToRecipient(await identityFromFile(unlock.identity)));
  return { key, wrapped: await encrypter.encrypt(`${key.identity}\n`) };
}

/** Where an encrypted folder keeps its key: the folder, its wrapped key file and its marker. */
export interface KeyPlace {
  dir: string;
  key: string;
  encryption: string;
}

/**
 * The folder's key, opened from its key file with the passphrase or identity (a
 * {@link WrongKeyError}, naming the folder, when it does not; a passphrase for a folder its
 * marker says opens with an identity, or the other way, is said so).
 */
export async function openFolderKey(place: KeyPlace, unlock: Unlock): Promise<FolderKey> {
  const folder = place.dir;
  const opens = await opensWith(place.encryption);
  if (opens !== undefined && opens !== ('passphrase' in unlock ? 'passphrase' : 'identity'))
    throw new WrongKeyError(
      opens === 'identity'
        ? `${folder} is encrypted to an age identity, not a passphrase: give --identity <file>`
        : `${folder} is encrypted with a passphrase, not to an identity: give the passphrase (CHATGRAPH_PASSPHRASE, --passphrase-file or at the terminal) instead of --identity`,
    );
  const wrapped = await readKeyFile(place);
  const { Decrypter } = await age();
  const { NativeScryptIdentity } = await scrypt();
  const decrypter = new Decrypter();
  if ('passphrase' in unlock) decrypter.addIdentity(new NativeScryptIdentity(unlock.passphrase));
  else decrypter.addIdentity(await identityFromFile(unlock.identity));
  let text: string;
  try {
    text = await decrypter.decrypt(wrapped, 'text');
  } catch (error) {
    // age says this of a secret that opens none of the file's stanzas; anything else is a
    // file that is not (or no longer) a whole age file.
    const message = error instanceof Error ? error.message : String(error);
    if (!/no identity matched/.test(message)) throw damagedKey(place.key, message);
    throw new WrongKeyError(
      'passphrase' in unlock
        ? `wrong passphrase for ${folder}`
        : `that identity does not open ${folder}`,
    );
  }
  const identity = IdentityText.safeParse(text);
  if (!identity.success) throw damagedKey(place.key, 'it does not hold an age identity');
  return keyOf(identity.data);
}

function damagedKey(keyFile: string, why: string): FolderEncryptionError {
  return new FolderEncryptionError(
    `${keyFile} is damaged (${why}): no passphrase or identity opens it; restore it from a backup of the folder`,
  );
}

async function readKeyFile(place: KeyPlace): Promise<Buffer> {
  try {
    return await readFile(place.key);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new FolderEncryptionError(
      `${place.dir} is encrypted (${basename(place.encryption)} says so), but its key file ${basename(place.key)} is missing: nothing of the folder opens without it; restore ${basename(place.key)} from a backup of the folder`,
    );
  }
}

const Marker = z.object({ opens: z.enum(['passphrase', 'identity']) });

// How the folder's marker says its key opens (undefined when it does not say).
async function opensWith(marker: string): Promise<'passphrase' | 'identity' | undefined> {
  try {
    const parsed = Marker.safeParse(JSON.parse(await readFile(marker, 'utf8')));
    return parsed.success ? parsed.data.opens : undefined;
  } catch {
    return undefined;
  }
}
