import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, readFile, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Decrypter, Encrypter, generateX25519Identity, identityToRecipient } from 'age-encryption';
import { writeFileAtomic } from '../../bundle/atomic-write.js';
import { signBytes, type SigningKey } from '../../trust/signing-key.js';
import { SyncRefusal } from './errors.js';
import { groupLayout, INVITE_KEY_NAME } from './folder-layout.js';
import { canonicalCode, codeKeys, newCode, SCRYPT } from './invite-code.js';
import {
  machineIdentity,
  pinGroup,
  type GroupPin,
  type MachineIdentity,
} from './machine-identity.js';
import { admissionPayload, openText, readRoster, type Machine, type Roster } from './roster.js';
import {
  inviteClosedMetaSchema,
  inviteKeyMetaSchema,
  pamTime,
  readRecord,
  RECORD_TYPES,
  recordText,
} from './records.js';

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
  /** age, to the group's shared recipient and every member's. */
  seal(plain: Uint8Array): Uint8Array | Promise<Uint8Array>;
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

function selfOf(identity: MachineIdentity): Machine {
  return {
    id: identity.id,
    name: identity.name,
    recipient: identity.recipient,
    publicKey: identity.signing.publicKey,
  };
}

async function sealTo(
  recipients: Iterable<string>,
  plain: Uint8Array | string,
): Promise<Uint8Array> {
  const encrypter = new Encrypter();
  for (const recipient of new Set(recipients)) encrypter.addRecipient(recipient);
  return encrypter.encrypt(plain);
}

class Group implements SyncGroup {
  readonly self: Machine;
  readonly members: readonly Machine[];
  readonly id: string;
  readonly refusals: readonly SyncRefusal[];
  readonly #recipients: readonly string[];
  readonly #identities: readonly string[];
  readonly #signing: SigningKey;

  constructor(identity: MachineIdentity, pin: GroupPin, roster: Roster) {
    this.self = selfOf(identity);
    this.members = roster.members;
    this.id = roster.groupId;
    this.refusals = roster.refusals;
    this.#recipients = [roster.groupRecipient, ...roster.members.map((m) => m.recipient)];
    this.#identities = [identity.ageIdentity, pin.group_identity];
    this.#signing = identity.signing;
  }

  seal(plain: Uint8Array): Promise<Uint8Array> {
    return sealTo(this.#recipients, plain);
  }

  async open(sealed: Uint8Array, file = '(sealed bytes)'): Promise<Uint8Array> {
    const decrypter = new Decrypter();
    for (const identity of this.#identities) decrypter.addIdentity(identity);
    try {
      return await decrypter.decrypt(sealed);
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
async function pinOf(dir: string, identity: MachineIdentity): Promise<GroupPin | undefined> {
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

async function found(dir: string, identity: MachineIdentity, now: Date): Promise<Group> {
  const layout = groupLayout(dir);
  const groupId = randomUUID();
  const groupIdentity = await generateX25519Identity();
  const groupRecipient = await identityToRecipient(groupIdentity);
  const self = selfOf(identity);
  const text = recordText({
    groupId,
    type: RECORD_TYPES.founder,
    content: `chatgraph sync group ${groupId}, founded by machine ${self.name} (${self.id})`,
    metadata: { group_id: groupId, group_recipient: groupRecipient, machine: self },
    signer: identity.signing,
    now,
  });
  const temp = `${layout.founder}.${randomUUID()}.tmp`;
  await writeFileAtomic(temp, await sealTo([groupRecipient, self.recipient], text));
  try {
    // A link, not a rename: two machines founding at once in one DIR, only one founder.
    await link(temp, layout.founder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    throw new SyncRefusal(layout.founder, 'another machine founded a group here at the same time');
  } finally {
    await rm(temp, { force: true });
  }
  const pin: GroupPin = {
    group_id: groupId,
    founder_key: self.publicKey,
    group_identity: groupIdentity,
    joined_at: pamTime(now),
  };
  const pinned = await pinGroup(identity, pin);
  return new Group(pinned, pin, await readRoster(dir, pin, [identity.ageIdentity, groupIdentity]));
}

async function openAsMember(
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

/**
 * Opens the group of DIR as this machine (its identity made on first use); `create` founds a
 * group when DIR has none. Throws {@link SyncRefusal} when this machine is not a member.
 */
export async function openGroup(
  dir: string,
  opts: GroupOptions & { create: boolean },
): Promise<SyncGroup> {
  const identity = await machineIdentity(opts.configDir, nameOf(opts));
  const now = opts.now?.() ?? new Date();
  if (!existsSync(groupLayout(dir).founder)) {
    if (!opts.create)
      throw new SyncRefusal(
        dir,
        'no sync group in this folder: start one with `chatgraph sync DIR`, or join one with a code',
      );
    return found(dir, identity, now);
  }
  const { group, roster } = await openAsMember(dir, identity);
  await closeSpentInvites(dir, identity, roster, group, now);
  return group;
}

function nameOf(opts: GroupOptions): { name?: string; now?: () => Date } {
  return { ...(opts.name ? { name: opts.name } : {}), ...(opts.now ? { now: opts.now } : {}) };
}

/**
 * A used or expired invite's key file is replaced by a closed record (sealed to the same code
 * recipient): the group's identity is no longer in DIR for whoever learns the code later, and a
 * joiner who types it is told why it no longer works.
 */
async function closeSpentInvites(
  dir: string,
  identity: MachineIdentity,
  roster: Roster,
  group: Group,
  now: Date,
): Promise<void> {
  const layout = groupLayout(dir);
  if (!existsSync(layout.invites)) return;
  for (const name of await readdir(layout.invites)) {
    const inviteId = INVITE_KEY_NAME.exec(name)?.[1];
    const invite = inviteId ? roster.invites.get(inviteId) : undefined;
    if (!inviteId || !invite) continue;
    const usedBy = roster.used.get(inviteId);
    const expired = Date.parse(invite.meta.expires) < now.getTime();
    if (!usedBy && !expired) continue;
    const file = layout.inviteKey(inviteId);
    // Already closed? (opening it as a member costs one X25519 share.)
    const text = await openText(file, [identity.ageIdentity]);
    if (typeof text === 'string' && text.includes(RECORD_TYPES.inviteClosed)) continue;
    await writeClosed(file, {
      groupId: roster.groupId,
      inviteId,
      codeRecipient: invite.meta.code_recipient,
      recipients: group.recipients,
      reason: usedBy
        ? `used by machine ${usedBy.id} (${usedBy.name})`
        : `expired at ${invite.meta.expires}`,
      signer: identity.signing,
      now,
    });
  }
}

async function writeClosed(
  file: string,
  input: {
    groupId: string;
    inviteId: string;
    codeRecipient: string;
    recipients: readonly string[];
    reason: string;
    signer: SigningKey;
    now: Date;
  },
): Promise<void> {
  const text = recordText({
    groupId: input.groupId,
    type: RECORD_TYPES.inviteClosed,
    content: `chatgraph sync invite ${input.inviteId}, closed: ${input.reason}`,
    metadata: { group_id: input.groupId, invite_id: input.inviteId, reason: input.reason },
    signer: input.signer,
    now: input.now,
  });
  await writeFileAtomic(file, await sealTo([input.codeRecipient, ...input.recipients], text));
}

/**
 * A one-time code for one new machine, expiring (24 h by default). The invite record, signed by
 * this machine, holds the code's public keys; the key file, sealed to the code's age recipient
 * (and the group's), holds what the joiner needs: the group's id, founder key and shared identity.
 */
export async function inviteMachine(
  dir: string,
  opts: InviteOptions,
): Promise<{ code: string; expires: string }> {
  const identity = await machineIdentity(opts.configDir, nameOf(opts));
  const now = opts.now?.() ?? new Date();
  if (!existsSync(groupLayout(dir).founder))
    throw new SyncRefusal(dir, 'no sync group in this folder: start one with `chatgraph sync DIR`');
  const { group, pin } = await openAsMember(dir, identity);
  const layout = groupLayout(dir);
  const code = newCode();
  const logN = opts.scryptLogN ?? SCRYPT.logN;
  const keys = await codeKeys(canonicalCode(code) ?? code, logN);
  const inviteId = randomUUID();
  const expires = pamTime(new Date(now.getTime() + (opts.expiresInMs ?? INVITE_LIFETIME_MS)));
  const invite = recordText({
    groupId: group.id,
    type: RECORD_TYPES.invite,
    content: `chatgraph sync invite ${inviteId} by machine ${group.self.name}, until ${expires}`,
    metadata: {
      group_id: group.id,
      invite_id: inviteId,
      inviter_id: group.self.id,
      code_public_key: keys.signing.publicKey,
      code_recipient: keys.recipient,
      expires,
      scrypt: { log_n: logN, r: SCRYPT.r, p: SCRYPT.p },
    },
    signer: identity.signing,
    now,
  });
  await writeFileAtomic(layout.invite(inviteId), await group.seal(Buffer.from(invite)));
  const key = recordText({
    groupId: group.id,
    type: RECORD_TYPES.inviteKey,
    content: `chatgraph sync invite ${inviteId}: what a new machine needs to join, until ${expires}`,
    metadata: {
      group_id: group.id,
      invite_id: inviteId,
      founder_public_key: pin.founder_key,
      group_identity: pin.group_identity,
      expires,
    },
    signer: identity.signing,
    now,
  });
  await writeFileAtomic(
    layout.inviteKey(inviteId),
    await sealTo([keys.recipient, ...group.recipients], key),
  );
  return { code, expires };
}

/**
 * This machine joins the group of DIR with a code from {@link inviteMachine}: it finds the
 * invite the code opens, verifies the roster and the invite from DIR alone, writes its
 * admission signed by its own key and by the code's, closes the invite, and opens the group.
 */
export async function joinGroup(
  dir: string,
  code: string,
  opts: GroupOptions & { scryptLogN?: number },
): Promise<SyncGroup> {
  const layout = groupLayout(dir);
  const canonical = canonicalCode(code);
  if (!canonical)
    throw new SyncRefusal(
      layout.invites,
      'not an invite code: 20 letters and digits, as `chatgraph sync invite DIR` prints them',
    );
  if (!existsSync(layout.founder))
    throw new SyncRefusal(dir, 'no sync group in this folder (not synced here yet?)');
  let identity = await machineIdentity(opts.configDir, nameOf(opts));
  const now = opts.now?.() ?? new Date();
  if (await pinOf(dir, identity)) {
    const { group } = await openAsMember(dir, identity);
    return group; // a member already: joining again changes nothing
  }
  const keys = await codeKeys(canonical, opts.scryptLogN ?? SCRYPT.logN);
  const found = await findInviteKey(layout.invites, keys.ageIdentity);
  if (!found)
    throw new SyncRefusal(
      layout.invites,
      'no invite in this folder opens with this code: a wrong code, or its invite has not synced here yet',
    );
  const { file, text } = found;
  const closed = readRecord(text, RECORD_TYPES.inviteClosed, inviteClosedMetaSchema);
  if (typeof closed !== 'string')
    throw new SyncRefusal(file, `this invite is closed: ${closed.meta.reason}`);
  const record = readRecord(text, RECORD_TYPES.inviteKey, inviteKeyMetaSchema);
  if (typeof record === 'string') throw new SyncRefusal(file, record);
  const meta = record.meta;
  if (Date.parse(meta.expires) < now.getTime())
    throw new SyncRefusal(file, `this invite expired at ${meta.expires}`);
  const pin: GroupPin = {
    group_id: meta.group_id,
    founder_key: meta.founder_public_key,
    group_identity: meta.group_identity,
    joined_at: pamTime(now),
  };
  const roster = await readRoster(dir, pin, [identity.ageIdentity, pin.group_identity]);
  if (!roster.members.some((m) => m.publicKey === record.signer))
    throw new SyncRefusal(file, 'signed by a key that is not in the roster');
  const invite = roster.invites.get(meta.invite_id);
  if (invite?.meta.code_public_key !== keys.signing.publicKey)
    throw new SyncRefusal(
      layout.invite(meta.invite_id),
      "no invite signed by a member holds this code's key",
    );
  const usedBy = roster.used.get(meta.invite_id);
  if (usedBy)
    throw new SyncRefusal(
      file,
      `this invite was used already, by machine ${usedBy.id} (${usedBy.name})`,
    );

  const self = selfOf(identity);
  const admission = {
    group_id: pin.group_id,
    invite_id: meta.invite_id,
    machine: self,
    signed_at: pamTime(now),
  };
  const text2 = recordText({
    groupId: pin.group_id,
    type: RECORD_TYPES.machine,
    content: `chatgraph sync machine ${self.name} (${self.id}), joined by invite ${meta.invite_id}`,
    metadata: {
      admission,
      code_signature: signBytes(keys.signing, admissionPayload(admission)),
    },
    signer: identity.signing,
    now,
  });
  const recipients = [
    roster.groupRecipient,
    ...roster.members.map((m) => m.recipient),
    self.recipient,
  ];
  await writeFileAtomic(layout.machine(self.id), await sealTo(recipients, text2));
  identity = await pinGroup(identity, pin);
  await writeClosed(file, {
    groupId: pin.group_id,
    inviteId: meta.invite_id,
    codeRecipient: keys.recipient,
    recipients,
    reason: `used by machine ${self.id} (${self.name})`,
    signer: identity.signing,
    now,
  });
  return (await openAsMember(dir, identity)).group;
}

async function findInviteKey(
  invites: string,
  codeIdentity: string,
): Promise<{ file: string; text: string } | undefined> {
  if (!existsSync(invites)) return undefined;
  for (const name of (await readdir(invites)).sort()) {
    if (!INVITE_KEY_NAME.test(name)) continue;
    const file = join(invites, name);
    // One X25519 share per file: the code's scrypt was paid once, above.
    const text = await openText(file, [codeIdentity]);
    if (typeof text === 'string') return { file, text };
  }
  return undefined;
}
