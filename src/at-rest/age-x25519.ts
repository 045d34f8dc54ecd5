import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import { bech32 } from '@scure/base';

/**
 * The age v1 format (age-encryption.org/v1) for one X25519 recipient, synchronous, on Node's
 * own X25519, HKDF, HMAC and ChaCha20-Poly1305. Why not `age-encryption` here: its API is
 * promise-based, and the bundle writer writes each conversation file without leaving the thread
 * (thousands per import; see BundleWriter.writeConversation), so an encrypted folder's writes
 * must be synchronous too. `age-encryption` still wraps the folder key (passphrase, identity
 * files), and the tests check that each opens what the other writes, and that the age CLI does.
 */

const VERSION_LINE = 'age-encryption.org/v1';
const X25519_LABEL = 'age-encryption.org/v1/X25519';
const CHUNK = 64 * 1024;
const TAG = 16;
const FILE_KEY_BYTES = 16;
// DER prefixes of an X25519 private (PKCS#8) and public (SPKI) key: Node imports raw keys so.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b656e04220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');

/** A file that is not an age file this key opens: damaged, or sealed to another key. */
export class AgeFileError extends Error {}

/** An age X25519 identity, decoded once for many files. */
export interface AgeKey {
  readonly secret: KeyObject;
  /** The recipient's public key, 32 raw bytes (what the X25519 stanza's salt holds). */
  readonly publicKey: Buffer;
}

/** Decodes an `AGE-SECRET-KEY-1…` identity as age-keygen writes one. */
export function ageKey(identity: string): AgeKey {
  const decoded = bech32.decode(identity.toLowerCase(), false);
  if (decoded.prefix !== 'age-secret-key-') throw new AgeFileError('not an age identity');
  const raw = Buffer.from(bech32.fromWords(decoded.words));
  if (raw.length !== 32) throw new AgeFileError('not an X25519 age identity');
  const secret = createPrivateKey({
    key: Buffer.concat([PKCS8_PREFIX, raw]),
    format: 'der',
    type: 'pkcs8',
  });
  return { secret, publicKey: rawPublicKey(createPublicKey(secret)) };
}

// The JWK form: a tenth of the time of the DER export (0.03 ms against 0.34 here), and a file
// sealed to a group pays it once per recipient.
function rawPublicKey(key: KeyObject): Buffer {
  return Buffer.from(String(key.export({ format: 'jwk' }).x), 'base64url');
}

function sharedSecret(secret: KeyObject, peer: Buffer): Buffer {
  const publicKey = createPublicKey({
    key: Buffer.concat([SPKI_PREFIX, peer]),
    format: 'der',
    type: 'spki',
  });
  const shared = diffieHellman({ privateKey: secret, publicKey });
  // age rejects the all-zero secret a low-order point gives.
  if (shared.every((byte) => byte === 0)) throw new AgeFileError('invalid X25519 share');
  return shared;
}

function hkdf(ikm: Buffer, salt: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', ikm, salt, info, 32));
}

function seal(key: Buffer, nonce: Buffer, plain: Uint8Array): Buffer {
  const cipher = createCipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG });
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

function unseal(key: Buffer, nonce: Buffer, sealed: Uint8Array): Buffer {
  if (sealed.length < TAG) throw new AgeFileError('truncated age file');
  const decipher = createDecipheriv('chacha20-poly1305', key, nonce, { authTagLength: TAG });
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
  try {
    return Buffer.concat([
      decipher.update(sealed.subarray(0, sealed.length - TAG)),
      decipher.final(),
    ]);
  } catch {
    throw new AgeFileError('age file failed its authentication (damaged, or another key)');
  }
}

/** age's base64: standard alphabet, no padding. */
function b64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

function unb64(text: string): Buffer {
  const bytes = Buffer.from(text, 'base64');
  // Canonical only, as age asks: Node's decoder would take other spare bits to the same bytes.
  if (b64(bytes) !== text) throw new AgeFileError('invalid base64 in age header');
  return bytes;
}

function headerMac(fileKey: Buffer, headerNoMac: string): Buffer {
  return createHmac('sha256', hkdf(fileKey, Buffer.alloc(0), 'header'))
    .update(headerNoMac, 'latin1')
    .digest();
}

function streamNonce(counter: number, last: boolean): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeUIntBE(counter, 5, 6);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

/** `plain` encrypted to `key`'s recipient, as an age file. */
export function sealAge(plain: Uint8Array, key: AgeKey): Buffer {
  return sealToRecipients(plain, [preparedRecipient(key.publicKey)]);
}

/** The 32 raw bytes of an `age1…` X25519 recipient. */
export function recipientKey(recipient: string): Buffer {
  const decoded = bech32.decode(recipient.toLowerCase() as `${string}1${string}`, false);
  if (decoded.prefix !== 'age') throw new AgeFileError(`not an age recipient: ${recipient}`);
  const raw = Buffer.from(bech32.fromWords(decoded.words));
  if (raw.length !== 32) throw new AgeFileError(`not an X25519 age recipient: ${recipient}`);
  return raw;
}

/** A recipient decoded once for many files: its raw bytes and Node's key object. */
export interface PreparedRecipient {
  raw: Buffer;
  key: KeyObject;
}

function preparedRecipient(raw: Buffer): PreparedRecipient {
  return {
    raw,
    key: createPublicKey({ key: Buffer.concat([SPKI_PREFIX, raw]), format: 'der', type: 'spki' }),
  };
}

/** Recipients (`age1…`, duplicates once) decoded for {@link sealToRecipients}. */
export function prepareRecipients(recipients: Iterable<string>): PreparedRecipient[] {
  return [...new Set(recipients)].map((recipient) => preparedRecipient(recipientKey(recipient)));
}

function stanza(fileKey: Buffer, recipient: PreparedRecipient): string {
  const ephemeral = generateKeyPairSync('x25519');
  const share = rawPublicKey(ephemeral.publicKey);
  const shared = diffieHellman({ privateKey: ephemeral.privateKey, publicKey: recipient.key });
  if (shared.every((byte) => byte === 0)) throw new AgeFileError('invalid X25519 recipient');
  const wrapKey = hkdf(shared, Buffer.concat([share, recipient.raw]), X25519_LABEL);
  // A 32-byte body is 43 base64 characters: one line, as age writes it.
  return `-> X25519 ${b64(share)}\n${b64(seal(wrapKey, Buffer.alloc(12), fileKey))}\n`;
}

/**
 * `plain` sealed to every recipient (from {@link prepareRecipients}), as an age file: one X25519
 * stanza per recipient, as age writes them. A synced folder's files go to every machine of the
 * group (src/sync/group); a data folder's to its one key.
 */
export function sealToRecipients(plain: Uint8Array, keys: readonly PreparedRecipient[]): Buffer {
  if (keys.length === 0) throw new AgeFileError('no recipient to seal to');
  const fileKey = randomBytes(FILE_KEY_BYTES);
  const headerNoMac = `${VERSION_LINE}\n${keys.map((k) => stanza(fileKey, k)).join('')}---`;
  const header = `${headerNoMac} ${b64(headerMac(fileKey, headerNoMac))}\n`;
  const nonce = randomBytes(16);
  const payloadKey = hkdf(fileKey, nonce, 'payload');
  const parts: Buffer[] = [Buffer.from(header, 'latin1'), nonce];
  const chunks = Math.max(1, Math.ceil(plain.length / CHUNK));
  for (let i = 0; i < chunks; i++) {
    const chunk = plain.subarray(i * CHUNK, (i + 1) * CHUNK);
    parts.push(seal(payloadKey, streamNonce(i, i === chunks - 1), chunk));
  }
  return Buffer.concat(parts);
}

interface Header {
  stanzas: { args: string[]; body: Buffer }[];
  headerNoMac: string;
  mac: Buffer;
  payloadStart: number;
}

function parseHeader(file: Buffer): Header {
  // The header is ASCII lines; it ends at the line that starts with "--- ".
  const end = file.indexOf('\n--- ');
  const macEnd = end < 0 ? -1 : file.indexOf('\n', end + 1);
  if (macEnd < 0) throw new AgeFileError('not an age file (no header end)');
  const lines = file.subarray(0, end).toString('latin1').split('\n');
  if (lines[0] !== VERSION_LINE) throw new AgeFileError('not an age v1 file');
  const stanzas: Header['stanzas'] = [];
  for (let i = 1; i < lines.length;) {
    const args = (lines[i++] ?? '').split(' ');
    if (args.shift() !== '->' || args.length === 0) throw new AgeFileError('invalid age stanza');
    const body: Buffer[] = [];
    for (;;) {
      const line = lines[i++];
      if (line === undefined) throw new AgeFileError('invalid age stanza');
      body.push(unb64(line));
      if (line.length < 64) break;
    }
    stanzas.push({ args, body: Buffer.concat(body) });
  }
  return {
    stanzas,
    headerNoMac: file.subarray(0, end + 4).toString('latin1'),
    mac: unb64(file.subarray(end + 5, macEnd).toString('latin1')),
    payloadStart: macEnd + 1,
  };
}

function fileKeyOf(header: Header, key: AgeKey): Buffer {
  for (const stanza of header.stanzas) {
    const [type, shareText] = stanza.args;
    if (type !== 'X25519' || shareText === undefined) continue;
    const share = unb64(shareText);
    if (share.length !== 32 || stanza.body.length !== FILE_KEY_BYTES + TAG) continue;
    const wrapKey = hkdf(
      sharedSecret(key.secret, share),
      Buffer.concat([share, key.publicKey]),
      X25519_LABEL,
    );
    try {
      return unseal(wrapKey, Buffer.alloc(12), stanza.body);
    } catch {
      // Another recipient's stanza: try the next.
    }
  }
  throw new AgeFileError('no recipient of this age file is the folder key');
}

/** An age file's content, opened with `key` (an {@link AgeFileError} when it cannot be). */
export function openAge(file: Uint8Array, key: AgeKey): Buffer {
  const bytes = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  const header = parseHeader(bytes);
  const fileKey = fileKeyOf(header, key);
  const expected = headerMac(fileKey, header.headerNoMac);
  if (expected.length !== header.mac.length || !timingSafeEqual(expected, header.mac))
    throw new AgeFileError('age header failed its MAC');
  const nonce = bytes.subarray(header.payloadStart, header.payloadStart + 16);
  if (nonce.length !== 16) throw new AgeFileError('truncated age file');
  const payloadKey = hkdf(fileKey, Buffer.from(nonce), 'payload');
  const payload = bytes.subarray(header.payloadStart + 16);
  const chunks = Math.max(1, Math.ceil(payload.length / (CHUNK + TAG)));
  const parts: Buffer[] = [];
  for (let i = 0; i < chunks; i++) {
    const sealed = payload.subarray(i * (CHUNK + TAG), (i + 1) * (CHUNK + TAG));
    const last = i === chunks - 1;
    const plain = unseal(payloadKey, streamNonce(i, last), sealed);
    // Only a file's first chunk may be empty (age's rule against a dropped tail).
    if (last && plain.length === 0 && i > 0)
      throw new AgeFileError('age file ends in an empty chunk');
    parts.push(plain);
  }
  return Buffer.concat(parts);
}
