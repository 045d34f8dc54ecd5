/**
 * Ed25519 public keys as PAM's example writes them (spec §18, pam-notes.md §6.3): multibase
 * base58btc (`z…`) of the multicodec prefix 0xed 0x01 and the 32 key bytes, the did:key form,
 * so `public_key` is `z6Mk…` and `key_id` the did:key URL `did:key:z6Mk…#z6Mk…`.
 */
const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const ED25519_PREFIX = [0xed, 0x01] as const;

function base58(bytes: Uint8Array): string {
  let value = 0n;
  for (const byte of bytes) value = value * 256n + BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = ALPHABET.charAt(Number(value % 58n)) + text;
    value /= 58n;
  }
  // Each leading zero byte is one leading '1'.
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

function fromBase58(text: string): Uint8Array | undefined {
  let value = 0n;
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return undefined;
    value = value * 58n + BigInt(digit);
  }
  const bytes: number[] = [];
  while (value > 0n) {
    bytes.unshift(Number(value % 256n));
    value /= 256n;
  }
  for (const char of text) {
    if (char !== '1') break;
    bytes.unshift(0);
  }
  return Uint8Array.from(bytes);
}

/** The multibase (`z6Mk…`) form of a raw 32-byte Ed25519 public key. */
export function multibaseOf(raw: Uint8Array): string {
  return `z${base58(Uint8Array.from([...ED25519_PREFIX, ...raw]))}`;
}

/** The raw 32 bytes of a `z6Mk…` Ed25519 key, or undefined when it is not one. */
export function rawOfMultibase(text: string): Uint8Array | undefined {
  if (!text.startsWith('z')) return undefined;
  const bytes = fromBase58(text.slice(1));
  if (bytes?.length !== 34 || bytes[0] !== ED25519_PREFIX[0] || bytes[1] !== ED25519_PREFIX[1])
    return undefined;
  return bytes.subarray(2);
}

/** The did:key URL of the key's verification method (`did:key:z6Mk…#z6Mk…`). */
export function didKeyUrl(multibase: string): string {
  return `did:key:${multibase}#${multibase}`;
}
