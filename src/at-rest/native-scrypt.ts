import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { Stanza, type Identity, type Recipient } from 'age-encryption';

/**
 * age's passphrase ("scrypt") recipient and identity, with Node's native scrypt: the package's
 * own runs scrypt in JavaScript, 15-20 s at age's work factor on a busy machine where Node's
 * takes 1-2 s, and this runs it off the event loop too. The stanza is age's exactly
 * (age-encryption.org/v1 section "scrypt"), so the age CLI opens what this writes and back.
 */

const LABEL = 'age-encryption.org/v1/scrypt';
/** age's own default: 2^18, about a second of one core. */
export const WORK_FACTOR = 18;
/** Higher is refused when opening, as age refuses it (a crafted file could take hours). */
const MAX_WORK_FACTOR = 20;
const SALT_BYTES = 16;
const TAG_BYTES = 16;

function stretch(passphrase: string, salt: Buffer, logN: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      passphrase,
      Buffer.concat([Buffer.from(LABEL), salt]),
      32,
      // scrypt's memory is 128 * r * N bytes: 256 MiB at 2^18, above Node's default cap.
      { N: 2 ** logN, r: 8, p: 1, maxmem: 129 * 8 * 2 ** logN + 1024 * 1024 },
      (error, key) => {
        if (error) reject(error);
        else resolve(key);
      },
    );
  });
}

const ZERO_NONCE = Buffer.alloc(12);

function seal(fileKey: Uint8Array, key: Buffer): Uint8Array {
  const cipher = createCipheriv('chacha20-poly1305', key, ZERO_NONCE, { authTagLength: TAG_BYTES });
  return Buffer.concat([cipher.update(fileKey), cipher.final(), cipher.getAuthTag()]);
}

function unseal(body: Uint8Array, key: Buffer): Uint8Array | null {
  if (body.length !== 16 + TAG_BYTES) return null;
  const decipher = createDecipheriv('chacha20-poly1305', key, ZERO_NONCE, {
    authTagLength: TAG_BYTES,
  });
  decipher.setAuthTag(body.subarray(16));
  try {
    return Buffer.concat([decipher.update(body.subarray(0, 16)), decipher.final()]);
  } catch {
    return null;
  }
}

/** Encrypts a file's key to a passphrase. */
export class NativeScryptRecipient implements Recipient {
  constructor(
    private readonly passphrase: string,
    private readonly logN = WORK_FACTOR,
  ) {}

  async wrapFileKey(fileKey: Uint8Array): Promise<Stanza[]> {
    const salt = randomBytes(SALT_BYTES);
    const key = await stretch(this.passphrase, salt, this.logN);
    const args = ['scrypt', salt.toString('base64').replace(/=+$/, ''), String(this.logN)];
    return [new Stanza(args, seal(fileKey, key))];
  }
}

/** Opens a file encrypted to a passphrase (null when the file is not; throws on a bad stanza). */
export class NativeScryptIdentity implements Identity {
  constructor(private readonly passphrase: string) {}

  async unwrapFileKey(stanzas: Stanza[]): Promise<Uint8Array | null> {
    const stanza = stanzas.find((s) => s.args[0] === 'scrypt');
    if (!stanza) return null;
    // age's rule: a passphrase file has no other recipient, so nobody else could have made it.
    if (stanzas.length !== 1) throw new Error('a scrypt stanza beside other recipients');
    const [, saltText, logText] = stanza.args;
    const salt = Buffer.from(saltText ?? '', 'base64');
    if (stanza.args.length !== 3 || salt.length !== SALT_BYTES || !/^[1-9]\d*$/.test(logText ?? ''))
      throw new Error('a malformed scrypt stanza');
    const logN = Number(logText);
    if (logN > MAX_WORK_FACTOR) throw new Error(`a scrypt work factor of 2^${logN}, above age's`);
    return unseal(stanza.body, await stretch(this.passphrase, salt, logN));
  }
}
