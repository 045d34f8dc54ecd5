import { randomUUID } from 'node:crypto';
import { Decrypter, Encrypter, generateIdentity, identityToRecipient } from 'age-encryption';
import { createSigningKey } from '../../src/trust/signing-key.js';
import type { GroupLike, GroupMachine } from '../../src/sync/group-contract.js';
import { join } from 'node:path';

/**
 * A group of machines for the engine's tests, behind the contract the group layer
 * (src/sync/group/) implements: real age X25519 identities and Ed25519 keys, the roster in
 * memory (the layer's invite and join are tested with it, not here).
 */
export async function standInGroup(names: readonly string[], keys: string): Promise<GroupLike[]> {
  const made = await Promise.all(
    names.map(async (name) => {
      const identity = await generateIdentity();
      const key = await createSigningKey(join(keys, `${name}-${randomUUID()}.pem`));
      const machine: GroupMachine = {
        id: `m-${name.toLowerCase()}-${randomUUID().slice(0, 8)}`,
        name,
        recipient: await identityToRecipient(identity),
        publicKey: key.publicKey,
      };
      return { machine, identity, key };
    }),
  );
  const members = made.map((m) => m.machine);
  return made.map(({ machine, identity, key }) => ({
    self: machine,
    members,
    async seal(plain: Uint8Array): Promise<Uint8Array> {
      const encrypter = new Encrypter();
      for (const member of members) encrypter.addRecipient(member.recipient);
      return encrypter.encrypt(plain);
    },
    async open(sealed: Uint8Array): Promise<Uint8Array> {
      const decrypter = new Decrypter();
      decrypter.addIdentity(identity);
      return decrypter.decrypt(sealed);
    },
    signingKey: () => key,
    trusts: (publicKey: string) => members.find((m) => m.publicKey === publicKey),
  }));
}
