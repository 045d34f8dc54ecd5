import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../bundle/atomic-write.js';
import { didKeyUrl, multibaseOf, rawOfMultibase } from './did-key.js';

/** A signing key that is missing, unreadable or not an Ed25519 private key. */
export class SigningKeyError extends Error {
  override readonly name = 'SigningKeyError';
}

/** An Ed25519 key pair: the private key, and the public key in PAM's forms. */
export interface SigningKey {
  privateKey: KeyObject;
  /** Multibase `z6Mk…` (the signature block's `public_key`). */
  publicKey: string;
  /** The did:key URL (the signature block's `key_id`). */
  keyId: string;
}

function rawPublicKey(key: KeyObject): Uint8Array {
  const jwk = key.export({ format: 'jwk' });
  if (typeof jwk.x !== 'string') throw new SigningKeyError('the key has no Ed25519 public part');
  return Buffer.from(jwk.x, 'base64url');
}

function toSigningKey(privateKey: KeyObject): SigningKey {
  const publicKey = multibaseOf(rawPublicKey(createPublicKey(privateKey)));
  return { privateKey, publicKey, keyId: didKeyUrl(publicKey) };
}

/**
 * Makes a new Ed25519 key and writes its private half to `file` (PKCS #8 PEM, mode 0600, its
 * folder 0700): readable by its owner alone. An existing key is kept unless `replace`, since
 * bundles signed with it would no longer be signed by a key one has.
 */
export async function createSigningKey(
  file: string,
  options: { replace?: boolean } = {},
): Promise<SigningKey> {
  if (existsSync(file) && !options.replace)
    throw new SigningKeyError(`${file} exists already: a key is kept unless replaced on purpose`);
  const { privateKey } = generateKeyPairSync('ed25519');
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' });
  await writeFileAtomic(file, typeof pem === 'string' ? pem : pem.toString('utf8'), {
    mode: 0o600,
  });
  await chmod(file, 0o600);
  return toSigningKey(privateKey);
}

/** Reads the private key in `file`. */
export async function readSigningKey(file: string): Promise<SigningKey> {
  let pem: string;
  try {
    pem = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new SigningKeyError(`${file}: no signing key there (make one with: chatgraph key new)`);
    throw error;
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch (error) {
    throw new SigningKeyError(
      `${file} is not a private key: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new SigningKeyError(
      `${file} is a ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`,
    );
  return toSigningKey(key);
}

/** The Ed25519 signature of `data`, base64url without padding (RFC 4648 §5). */
export function signBytes(key: SigningKey, data: string): string {
  return sign(null, Buffer.from(data, 'utf8'), key.privateKey).toString('base64url');
}

/**
 * Whether `value` (base64url) is an Ed25519 signature of `data` by the `z6Mk…` key; undefined
 * when the key or the value is not of that form.
 */
export function verifyBytes(publicKey: string, data: string, value: string): boolean | undefined {
  const raw = rawOfMultibase(publicKey);
  if (!raw || !/^[A-Za-z0-9_-]+={0,2}$/.test(value)) return undefined;
  const key = createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(raw).toString('base64url') },
    format: 'jwk',
  });
  const signature = Buffer.from(value, 'base64url');
  if (signature.length !== 64) return false;
  return verify(null, Buffer.from(data, 'utf8'), key, signature);
}
