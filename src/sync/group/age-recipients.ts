import {
  createCipheriv,
  createHmac,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { bech32 } from '@scure/base';
import { ageKey, AgeFileError, openAge, type AgeKey } from '../../at-rest/age-x25519.js';

/**
 * age v1 (age-encryption.org/v1) to many X25519 recipients, synchronous, on Node's own X25519,
 * HKDF, HMAC and ChaCha20-Poly1305: src/at-rest/age-x25519.ts seals to one recipient only, and
 * the `age-encryption` package's X25519 is JavaScript, 11 ms to seal and 15 ms to open a 4 kB
 * file to five recipients here (an export of thousands of conversations is a file each). This
 * writes the header exactly as age does (one X25519 stanza per recipient); opening is
 * age-x25519.ts's `openAge`, which tries every stanza. The tests check that the age CLI and
 * `age-encryption` open what this seals.
 */

const VERSION_LINE = 'age-encryption.org/v1';
const X25519_LABEL = 'age-encryption.org/v1/X25519';
const CHUNK = 64 * 1024;
const TAG = 16;
const SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');

/** The 32 raw bytes of an `age1…` X25519 recipient. */
export function recipientKey(recipient: string): Buffer {
  const decoded = bech32.decode(recipient.toLowerCase() as `${string}1${string}`, false);
  if (decoded.prefix !== 'age') throw new AgeFileError(`not an age recipient: ${recipient}`);
  const raw = Buffer.from(bech32.fromWords(decoded.words));
  if (raw.length !== 32) throw new AgeFileError(`not an X25519 age recipient: ${recipient}`);
  return raw;
}

// The JWK form: a tenth of the time of the DER export on this machine (0.03 ms against 0.34).
function rawPublicKey(key: KeyObject): Buffer {
  return Buffer.from(String(key.export({ format: 'jwk' }).x), 'base64url');
}

/** A recipient decoded once for many files: its raw bytes and Node's key object. */
export interface PreparedRecipient {
  raw: Buffer;
  key: KeyObject;
}

/** Recipients (`age1…`, duplicates once) decoded for {@link sealToRecipients}. */
export function prepareRecipients(recipients: Iterable<string>): PreparedRecipient[] {
  return [...new Set(recipients)].map((recipient) => {
    const raw = recipientKey(recipient);
    return {
      raw,
      key: createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' }),
    };
  });
}

function hkdf(ikm: Buffer, salt: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, 32));
}

function aead(key: Buffer, nonce: Buffer, plain: Uint8Array): Buffer {
  const cipher = createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG });
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

function stanza(fileKey: Buffer, recipient: PreparedRecipient): string {
  const ephemeral = generateKeyPairSync('x25519');
  const share = rawPublicKey(ephemeral.publicKey);
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient.key });
  if (shared.every((byte) => byte === 0)) throw new AgeFileError('invalid X25519 recipient');
  const wrapKey = hkdf(shared, Buffer.concat([share, recipient.raw]), X25519_LABEL);
  // A 32-byte body is 43 base64 characters: one line, as age writes it.
  return `-> X25519 ${b64(share)}\n${b64(aead(wrapKey, Buffer.alloc(12), fileKey))}\n`;
}

/** `plain` sealed to every recipient (from {@link prepareRecipients}), as an age file. */
export function sealToRecipients(plain: Uint8Array, keys: readonly PreparedRecipient[]): Buffer {
  if (keys.length === 0) throw new AgeFileError('no recipient to seal to');
  const fileKey = randomBytes(16);
  const headerNoMac = `${VERSION_LINE}\n${keys.map((k) => stanza(fileKey, k)).join('')}---`;
  const mac = createHmac('sha256', hkdf(fileKey, Buffer.alloc(0), 'header'))
    .update(headerNoMac, 'latin1')
    .digest();
  const nonce = randomBytes(16);
  const payloadKey = hkdf(fileKey, nonce, 'payload');
  const parts: Buffer[] = [Buffer.from(`${headerNoMac} ${b64(mac)}\n`, 'latin1'), nonce];
  const chunks = Math.max(1, Math.ceil(plain.length / CHUNK));
  for (let i = 0; i < chunks; i++) {
    const streamNonce = Buffer.alloc(12);
    streamNonce.writeUIntBE(i, 5, 6);
    streamNonce[11] = i === chunks - 1 ? 1 : 0;
    parts.push(aead(payloadKey, streamNonce, plain.subarray(i * CHUNK, (i + 1) * CHUNK)));
  }
  return Buffer.concat(parts);
}

/** Decoded identities (`AGE-SECRET-KEY-1…`), for many files. */
export function ageKeys(identities: readonly string[]): AgeKey[] {
  return identities.map(ageKey);
}

/** A file opened with the first of `keys` it is sealed to; an `AgeFileError` otherwise. */
export function openWithAny(sealed: Uint8Array, keys: readonly AgeKey[]): Buffer {
  let last: unknown = new AgeFileError('no identity to open it with');
  for (const key of keys) {
    try {
      return openAge(sealed, key);
    } catch (error) {
      last = error;
    }
  }
  throw last;
}
