import { describe, expect, it } from 'vitest';
import { didKeyUrl, multibaseOf, rawOfMultibase } from './did-key.js';

describe('did:key forms of an Ed25519 key', () => {
  it("reads PAM's example key and writes it back the same", () => {
    const example = 'z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK';
    const raw = rawOfMultibase(example);
    expect(raw).toHaveLength(32);
    expect(multibaseOf(raw!)).toBe(example);
    expect(didKeyUrl(example)).toBe(`did:key:${example}#${example}`);
  });

  it('keeps leading zero bytes, and every key starts z6Mk', () => {
    for (const first of [0, 1, 255]) {
      const raw = Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? first : (i * 37) % 256));
      const text = multibaseOf(raw);
      expect(text.startsWith('z6Mk')).toBe(true);
      expect([...rawOfMultibase(text)!]).toEqual([...raw]);
    }
  });

  it('refuses what is not a multibase Ed25519 key', () => {
    expect(rawOfMultibase('6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK')).toBeUndefined();
    expect(rawOfMultibase('z0OIl')).toBeUndefined();
    // A secp256k1 key (multicodec 0xe7): not Ed25519.
    expect(rawOfMultibase('zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme')).toBeUndefined();
  });
});
