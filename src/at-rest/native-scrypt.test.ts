import { Decrypter, Encrypter } from 'age-encryption';
import { describe, expect, it } from 'vitest';
import { NativeScryptIdentity, NativeScryptRecipient } from './native-scrypt.js';

// A low work factor keeps the package's JavaScript scrypt quick; the stanza is the same at 2^18.
const LOG_N = 10;

describe("Node's scrypt in age's passphrase stanza", () => {
  it('writes what age-encryption’s own passphrase identity opens', async () => {
    const encrypter = new Encrypter();
    encrypter.addRecipient(new NativeScryptRecipient('pass word', LOG_N));
    const sealed = await encrypter.encrypt('the chat');
    const decrypter = new Decrypter();
    decrypter.addPassphrase('pass word');
    expect(await decrypter.decrypt(sealed, 'text')).toBe('the chat');
  });

  it('opens what age-encryption’s own passphrase recipient writes, and not with another passphrase', async () => {
    const encrypter = new Encrypter();
    encrypter.setPassphrase('pass word');
    encrypter.setScryptWorkFactor(LOG_N);
    const sealed = await encrypter.encrypt('the chat');
    const right = new Decrypter();
    right.addIdentity(new NativeScryptIdentity('pass word'));
    expect(await right.decrypt(sealed, 'text')).toBe('the chat');
    const wrong = new Decrypter();
    wrong.addIdentity(new NativeScryptIdentity('pass wort'));
    await expect(wrong.decrypt(sealed, 'text')).rejects.toThrow();
  });
});
