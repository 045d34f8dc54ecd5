import { createPrivateKey, createPublicKey, randomBytes, scrypt } from 'node:crypto';
import { bech32 } from '@scure/base';
import { identityToRecipient } from 'age-encryption';
import { didKeyUrl, multibaseOf } from '../../trust/did-key.js';
import type { SigningKey } from '../../trust/signing-key.js';

/**
 * The one-time code: 20 characters of Crockford's base32 (no I, L, O or U: nothing to misread),
 * typed as 4 groups of 5, 100 random bits. Whoever holds DIR can try codes offline against the
 * invite's public key, so each guess costs one scrypt (N = 2^18, r = 8, p = 1: ~256 MiB and about
 * a second of one core): 2^100 guesses of that is out of anyone's reach, and the code expires
 * besides. The salt is a fixed label (the joiner knows nothing of the group before the code
 * opens it); a precomputed table over 2^100 codes is as far out of reach as the guesses.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 20;
export const SCRYPT = { logN: 18, r: 8, p: 1 } as const;
const SALT = 'chatgraph-sync-invite/v1';
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A new code, as shown: `XXXXX-XXXXX-XXXXX-XXXXX`. */
export function newCode(): string {
  // 256 is a multiple of 32: each byte's low 5 bits are uniform.
  const chars = Array.from(randomBytes(LENGTH), (byte) => ALPHABET.charAt(byte & 31)).join('');
  return chars.match(/.{5}/g)?.join('-') ?? chars;
}

/**
 * The code as typed, made canonical (case, spaces and dashes ignored; O read as 0, I and L as
 * 1, as Crockford's base32 does), or undefined when it is not a code.
 */
export function canonicalCode(typed: string): string | undefined {
  const chars = typed
    .toUpperCase()
    .replace(/[\s-]+/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (!new RegExp(`^[${ALPHABET}]{${LENGTH}}$`).test(chars)) return undefined;
  return chars;
}

/** What the code stands for: an Ed25519 key (proves the code) and an age identity (opens the invite). */
export interface CodeKeys {
  signing: SigningKey;
  /** `AGE-SECRET-KEY-1…` */
  ageIdentity: string;
  /** `age1…` */
  recipient: string;
}

function stretch(code: string, logN: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      code,
      SALT,
      64,
      { N: 2 ** logN, r: SCRYPT.r, p: SCRYPT.p, maxmem: 129 * SCRYPT.r * 2 ** logN + 2 ** 20 },
      (error, key) => {
        if (error) reject(error);
        else resolve(key);
      },
    );
  });
}

/**
 * The keys derived from a canonical code: scrypt(code, label) gives 64 bytes, the first 32 an
 * Ed25519 seed, the last 32 an X25519 secret. `logN` is lowered by tests only.
 */
export async function codeKeys(code: string, logN: number = SCRYPT.logN): Promise<CodeKeys> {
  const stretched = await stretch(code, logN);
  const privateKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519, stretched.subarray(0, 32)]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = multibaseOf(Buffer.from(String(jwk.x), 'base64url'));
  const ageIdentity = bech32
    .encode('age-secret-key-', bech32.toWords(stretched.subarray(32, 64)), false)
    .toUpperCase();
  return {
    signing: { privateKey, publicKey, keyId: didKeyUrl(publicKey) },
    ageIdentity,
    recipient: await identityToRecipient(ageIdentity),
  };
}
