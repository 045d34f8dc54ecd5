import type { SigningKey } from '../trust/signing-key.js';

/*
 * What the engine asks of the group layer (`src/sync/group/`, README-contract.md): the
 * machines of the person, sealing to all of them and opening what they wrote, and this
 * machine's signing key. Declared here as the engine uses it, so the engine and its tests
 * depend on the contract, not on the layer's files.
 */

export interface GroupMachine {
  id: string;
  name: string;
  recipient: string;
  publicKey: string;
}

export interface GroupLike {
  readonly self: GroupMachine;
  readonly members: readonly GroupMachine[];
  seal(plain: Uint8Array): Uint8Array | Promise<Uint8Array>;
  open(sealed: Uint8Array): Promise<Uint8Array>;
  signingKey(): SigningKey;
  trusts(publicKey: string): GroupMachine | undefined;
}
