import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption';
import { afterAll, describe, expect, it } from 'vitest';
import { ageKeys, openWithAny, prepareRecipients, sealToRecipients } from './age-recipients.js';

const dir = mkdtempSync(join(tmpdir(), 'cg-age-many-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// `npm run provision` installs the age CLI (Debian's `age`): a test never skips for want of it.
function ageCli(): string {
  const found = spawnSync('which', ['age'], { encoding: 'utf8' }).stdout.trim();
  if (!found)
    throw new Error('the age CLI is missing: run `npm run provision` (apt-get install age)');
  return found;
}

describe('age to many X25519 recipients', () => {
  it('is opened by each recipient with the age CLI and age-encryption, and opens theirs', async () => {
    const identities = await Promise.all([1, 2, 3].map(() => generateX25519Identity()));
    const recipients = await Promise.all(identities.map((i) => identityToRecipient(i)));
    // Three sizes: empty, under a chunk, over one 64 KiB chunk (two payload chunks).
    for (const size of [0, 1000, 70_000]) {
      const plain = Buffer.alloc(size, 'x');
      const sealed = sealToRecipients(
        plain,
        prepareRecipients([...recipients, recipients[0] ?? '']),
      );
      const file = join(dir, `sealed-${size}.age`);
      writeFileSync(file, sealed);
      for (const [n, identity] of identities.entries()) {
        const keyFile = join(dir, `key-${n}.txt`);
        writeFileSync(keyFile, `${identity}\n`);
        const run = spawnSync(ageCli(), ['-d', '-i', keyFile, file]);
        expect(run.stderr.toString()).toBe('');
        expect(Buffer.compare(run.stdout, plain)).toBe(0);
        const decrypter = new Decrypter();
        decrypter.addIdentity(identity);
        expect(Buffer.compare(Buffer.from(await decrypter.decrypt(sealed)), plain)).toBe(0);
        expect(Buffer.compare(openWithAny(sealed, ageKeys([identity])), plain)).toBe(0);
      }
    }
    const encrypter = new Encrypter();
    for (const r of recipients) encrypter.addRecipient(r);
    const theirs = await encrypter.encrypt('from age-encryption');
    expect(openWithAny(theirs, ageKeys([identities[2] ?? ''])).toString()).toBe(
      'from age-encryption',
    );
    const cliFile = join(dir, 'cli.age');
    spawnSync(ageCli(), ['-r', recipients[0] ?? '', '-r', recipients[1] ?? '', '-o', cliFile], {
      input: 'from the age CLI',
    });
    expect(openWithAny(readFileSync(cliFile), ageKeys([identities[1] ?? ''])).toString()).toBe(
      'from the age CLI',
    );
    const stranger = await generateX25519Identity();
    expect(() => openWithAny(theirs, ageKeys([stranger]))).toThrow(/no recipient/);
  });
});
