import { ageKey, openAge, AgeFileError, type AgeKey } from '../../at-rest/age-x25519.js';

// Sealing to many recipients is src/at-rest/age-x25519.ts's `sealToRecipients` (synchronous, on
// Node's own X25519: the `age-encryption` package took 11 ms to seal and 15 ms to open a 4 kB
// file to five recipients here, and an export is a file per conversation). The tests check that
// the age CLI and `age-encryption` open what it seals.
export {
  prepareRecipients,
  recipientKey,
  sealToRecipients,
  type PreparedRecipient,
} from '../../at-rest/age-x25519.js';

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
