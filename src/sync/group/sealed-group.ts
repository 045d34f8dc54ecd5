import { readFile } from 'node:fs/promises';
import type { AgeKey } from '../../at-rest/age-x25519.js';
import {
  ageKeys,
  openWithAny,
  prepareRecipients,
  sealToRecipients,
  type PreparedRecipient,
} from './age-recipients.js';
import type { SigningKey } from '../../trust/signing-key.js';
import { SyncRefusal } from './errors.js';
import { groupLayout } from './folder-layout.js';
import type { GroupPin, MachineIdentity } from './machine-identity.js';
import { inviteKeyMetaSchema, readRecord, RECORD_TYPES } from './records.js';
import { openText, readRoster, type Machine, type Roster } from './roster.js';

/** The key a machine signs its exports with (what src/trust/sign-bundle.ts signs with). */
export type SigningKeyLike = SigningKey;

export interface SyncGroup {
  readonly self: Machine;
  /** The roster as verified from DIR. */
  readonly members: readonly Machine[];
  /** The group's id (a UUID, the `owner.id` of its records). */
  readonly id: string;
  /** Files of `.group/` that were not accepted (ignored, left in place): for the report. */
  readonly refusals: readonly SyncRefusal[];
  /**
   * age, to the group's shared recipient and every member's; synchronous (the contract allowed
   * a promise too; awaiting this is harmless).
   */
  seal(plain: Uint8Array): Uint8Array;
  /** {@link open} without leaving the thread (with `seal`, a src/bundle `Sealer`). */
  openSync(sealed: Uint8Array, file?: string): Uint8Array;
  /** Throws {@link SyncRefusal} (naming `file`, when given) when this machine cannot open it. */
  open(sealed: Uint8Array, file?: string): Promise<Uint8Array>;
  signingKey(): SigningKeyLike;
  /** A member's key, or undefined: refused. */
  trusts(publicKey: string): Machine | undefined;
}

/** How the group's functions are called; the last four are for tests and the CLI's options. */
export interface GroupOptions {
  configDir: string;
  /** This machine's name when its identity is made (default: the host's name). */
  name?: string;
  now?: () => Date;
}

export interface InviteOptions extends GroupOptions {
  /** How long the code works (default 24 hours). */
  expiresInMs?: number;
  /** scrypt's cost as log2 N (default 18); lowered by tests only. */
  scryptLogN?: number;
}

export const INVITE_LIFETIME_MS = 24 * 60 * 60 * 1000;

export function selfOf(identity: MachineIdentity): Machine {
  return {
    id: identity.id,
    name: identity.name,
    recipient: identity.recipient,
    publicKey: identity.signing.publicKey,
  };
}

export function sealTo(recipients: Iterable<string>, plain: Uint8Array | string): Buffer {
  return sealToRecipients(
    typeof plain === 'string' ? Buffer.from(plain) : plain,
    prepareRecipients(recipients),
  );
}

export class Group implements SyncGroup {
  readonly self: Machine;
  readonly members: readonly Machine[];
  readonly id: string;
  readonly refusals: readonly SyncRefusal[];
  readonly #recipients: readonly string[];
  readonly #keys: readonly AgeKey[];
  readonly #prepared: readonly PreparedRecipient[];
  readonly #signing: SigningKey;

  constructor(identity: MachineIdentity, pin: GroupPin, roster: Roster) {
    this.self = selfOf(identity);
    this.members = roster.members;
    this.id = roster.groupId;
    this.refusals = roster.refusals;
    this.#recipients = [roster.groupRecipient, ...roster.members.map((m) => m.recipient)];
    // The group's key first: every file of DIR is sealed to it (one X25519 share to open).
    this.#prepared = prepareRecipients(this.#recipients);
    this.#keys = ageKeys([pin.group_identity, identity.ageIdentity]);
    this.#signing = identity.signing;
  }

  /** Synchronous (Node's own X25519), so it fits src/bundle/sealed-files.ts's `Sealer` too. */
  seal(plain: Uint8Array): Buffer {
    return sealToRecipients(plain, this.#prepared);
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- the contract's open is async; a throw becomes a rejection.
  async open(sealed: Uint8Array, file = '(sealed bytes)'): Promise<Uint8Array> {
    return this.openSync(sealed, file);
  }

  /** {@link open} without leaving the thread (a `Sealer`'s open). */
  openSync(sealed: Uint8Array, file = '(sealed bytes)'): Buffer {
    try {
      return openWithAny(sealed, this.#keys);
    } catch (error) {
      throw new SyncRefusal(
        file,
        `this machine cannot open it: sealed to other keys, or damaged (${(error as Error).message})`,
      );
    }
  }

  signingKey(): SigningKeyLike {
    return this.#signing;
  }

  trusts(publicKey: string): Machine | undefined {
    return this.members.find((m) => m.publicKey === publicKey);
  }

  get recipients(): readonly string[] {
    return this.#recipients;
  }
}

/** The pin of the group whose founder record one of this machine's group identities opens. */
export async function pinOf(dir: string, identity: MachineIdentity): Promise<GroupPin | undefined> {
  const file = groupLayout(dir).founder;
  const bytes = await readFile(file);
  for (const pin of identity.groups) {
    const text = await openText(file, [pin.group_identity], bytes);
    if (typeof text !== 'string') continue;
    const record = readRecord(text, RECORD_TYPES.founder, founderGroupOnly);
    if (typeof record !== 'string' && record.groupId === pin.group_id) return pin;
  }
  return undefined;
}

// The founder record's group alone, to tell which pinned group DIR is (verified fully after).
const founderGroupOnly = inviteKeyMetaSchema.pick({ group_id: true });

export async function openAsMember(
  dir: string,
  identity: MachineIdentity,
): Promise<{ group: Group; pin: GroupPin; roster: Roster }> {
  const layout = groupLayout(dir);
  const pin = await pinOf(dir, identity);
  if (!pin)
    throw new SyncRefusal(
      layout.founder,
      'this machine is not in the sync group of this folder: join it with `chatgraph sync DIR --join CODE`, the code from `chatgraph sync invite DIR` on a member',
    );
  const roster = await readRoster(dir, pin, [identity.ageIdentity, pin.group_identity]);
  const self = selfOf(identity);
  if (!roster.members.some((m) => m.id === self.id && m.publicKey === self.publicKey))
    throw new SyncRefusal(
      layout.machine(self.id),
      'this machine is not in the verified roster (its admission is missing, not synced here yet, or refused)',
    );
  return { group: new Group(identity, pin, roster), pin, roster };
}

export function nameOf(opts: GroupOptions): { name?: string; now?: () => Date } {
  return { ...(opts.name ? { name: opts.name } : {}), ...(opts.now ? { now: opts.now } : {}) };
}
