import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decrypter, Encrypter, generateIdentity, identityToRecipient } from 'age-encryption';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { AgeFileError, ageKey, openAge, sealAge } from './age-x25519.js';

// Sizes around age's 64 KiB chunks: empty, one byte, a chunk exactly, one over, two and a bit.
const SIZES = [0, 1, 1000, 65536, 65537, 131072, 200001];

function bytes(size: number): Buffer {
  const out = Buffer.alloc(size);
  for (let i = 0; i < size; i++) out[i] = (i * 31 + 7) % 251;
  return out;
}

const folder = mkdtempSync(join(tmpdir(), 'chatgraph-age-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('age files written and read without leaving the thread', () => {
  it('writes what age-encryption opens, and opens what it writes, at every chunk boundary', async () => {
    const identity = await generateIdentity();
    const key = ageKey(identity);
    for (const size of SIZES) {
      const plain = bytes(size);
      const decrypter = new Decrypter();
      decrypter.addIdentity(identity);
      expect(Buffer.from(await decrypter.decrypt(sealAge(plain, key))).equals(plain)).toBe(true);
      const encrypter = new Encrypter();
      encrypter.addRecipient(await identityToRecipient(identity));
      expect(openAge(await encrypter.encrypt(plain), key).equals(plain)).toBe(true);
    }
  });

  it('writes files the age CLI opens, and opens what the age CLI writes', async () => {
    const identity = await generateIdentity();
    const key = ageKey(identity);
    const identityFile = join(folder, 'identity.txt');
    writeFileSync(identityFile, `${identity}\n`);
    for (const size of [0, 65536, 200001]) {
      const plain = bytes(size);
      const sealed = join(folder, `${size}.age`);
      writeFileSync(sealed, sealAge(plain, key));
      expect(execFileSync('age', ['-d', '-i', identityFile, sealed]).equals(plain)).toBe(true);
      const plainFile = join(folder, `${size}.plain`);
      writeFileSync(plainFile, plain);
      const recipient = await identityToRecipient(identity);
      const theirs = execFileSync('age', ['-r', recipient, plainFile]);
      expect(openAge(theirs, key).equals(plain)).toBe(true);
    }
  });

  it('refuses another key, a changed byte anywhere and a cut file, in an AgeFileError', async () => {
    const key = ageKey(await generateIdentity());
    const other = ageKey(await generateIdentity());
    const sealed = sealAge(bytes(70000), key);
    expect(() => openAge(sealed, other)).toThrow(AgeFileError);
    fc.assert(
      fc.property(fc.nat(sealed.length - 1), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const changed = Buffer.from(sealed);
        changed[at] = (changed[at] ?? 0) ^ flip;
        expect(() => openAge(changed, key)).toThrow(AgeFileError);
      }),
      { numRuns: 300 },
    );
    expect(() => openAge(sealed.subarray(0, sealed.length - 70000 + 10), key)).toThrow(
      AgeFileError,
    );
    expect(() => openAge(sealed.subarray(0, 65536 + 300), key)).toThrow(AgeFileError);
  });

  it('round-trips any bytes', async () => {
    const key = ageKey(await generateIdentity());
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 3000 }), (plain) => {
        expect(openAge(sealAge(plain, key), key).equals(Buffer.from(plain))).toBe(true);
      }),
      { numRuns: 50 },
    );
  });
});
