import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import canonicalize from 'canonicalize';
import type { z } from 'zod';
import { verifyBytes } from '../../trust/signing-key.js';
import { ageKeys, openWithAny } from './age-recipients.js';
import { SyncRefusal } from './errors.js';
import { groupLayout, RECORD_NAME } from './folder-layout.js';
import type { GroupPin } from './machine-identity.js';
import {
  founderMetaSchema,
  inviteMetaSchema,
  machineMetaSchema,
  readRecord,
  RECORD_TYPES,
  type RecordType,
  type VerifiedRecord,
} from './records.js';

export interface Machine {
  id: string;
  name: string;
  /** age X25519 recipient, `age1…` */
  recipient: string;
  /** Ed25519, multibase `z6Mk…` as src/trust/did-key.ts spells it */
  publicKey: string;
}

type InviteMeta = z.infer<typeof inviteMetaSchema>;

/** The roster as verified from DIR alone, from the pinned founder key down. */
export interface Roster {
  groupId: string;
  groupRecipient: string;
  founder: Machine;
  members: Machine[];
  /** Invites signed by a member, by id. */
  invites: Map<string, { meta: InviteMeta; file: string }>;
  /** Which machine each used invite admitted. */
  used: Map<string, Machine>;
  refusals: SyncRefusal[];
}

/** Opens an age file with any of `identities`, as text; a refusal naming the file otherwise. */
export async function openText(
  file: string,
  identities: readonly string[],
  bytes?: Uint8Array,
): Promise<string | SyncRefusal> {
  let sealed: Uint8Array;
  try {
    sealed = bytes ?? (await readFile(file));
  } catch (error) {
    return new SyncRefusal(file, `cannot be read (${(error as Error).message})`);
  }
  try {
    return openWithAny(sealed, ageKeys(identities)).toString('utf8');
  } catch (error) {
    return new SyncRefusal(
      file,
      `this machine cannot open it: sealed to other keys, or damaged (${(error as Error).message})`,
    );
  }
}

async function openRecord<T>(
  file: string,
  identities: readonly string[],
  type: RecordType,
  schema: z.ZodType<T>,
): Promise<VerifiedRecord<T> | SyncRefusal> {
  const text = await openText(file, identities);
  if (text instanceof SyncRefusal) return text;
  const record = readRecord(text, type, schema);
  return typeof record === 'string' ? new SyncRefusal(file, record) : record;
}

async function recordFiles(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  return (await readdir(dir))
    .filter((name) => RECORD_NAME.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/** The RFC 8785 bytes the code's key signs: the new machine's admission. */
export function admissionPayload(admission: unknown): string {
  return canonicalize(admission) ?? '';
}

type InviteClaim = { meta: InviteMeta; signer: string; file: string };
type MachineClaim = {
  machine: Machine;
  meta: z.infer<typeof machineMetaSchema>;
  file: string;
};

async function founderOf(
  dir: string,
  pin: GroupPin,
  identities: readonly string[],
): Promise<VerifiedRecord<z.infer<typeof founderMetaSchema>>> {
  const { founder: file } = groupLayout(dir);
  const record = await openRecord(file, identities, RECORD_TYPES.founder, founderMetaSchema);
  if (record instanceof SyncRefusal) throw record;
  if (
    record.signer !== pin.founder_key ||
    record.meta.machine.publicKey !== pin.founder_key ||
    record.groupId !== pin.group_id ||
    record.meta.group_id !== pin.group_id
  )
    throw new SyncRefusal(
      file,
      'not the founder this machine knows (another key or another group): the group is not opened',
    );
  return record;
}

async function inviteClaims(
  dir: string,
  groupId: string,
  identities: readonly string[],
  refusals: SyncRefusal[],
): Promise<InviteClaim[]> {
  const invites: InviteClaim[] = [];
  for (const file of await recordFiles(groupLayout(dir).invites)) {
    const record = await openRecord(file, identities, RECORD_TYPES.invite, inviteMetaSchema);
    if (record instanceof SyncRefusal) refusals.push(record);
    else if (record.groupId !== groupId || record.meta.group_id !== groupId)
      refusals.push(new SyncRefusal(file, 'an invite of another group'));
    else if (basename(file) !== `${record.meta.invite_id}.age`)
      refusals.push(new SyncRefusal(file, 'its name is not its invite id'));
    else invites.push({ meta: record.meta, signer: record.signer, file });
  }
  return invites;
}

async function machineClaims(
  dir: string,
  groupId: string,
  identities: readonly string[],
  refusals: SyncRefusal[],
): Promise<MachineClaim[]> {
  const claims: MachineClaim[] = [];
  for (const file of await recordFiles(groupLayout(dir).machines)) {
    const record = await openRecord(file, identities, RECORD_TYPES.machine, machineMetaSchema);
    if (record instanceof SyncRefusal) {
      refusals.push(record);
      continue;
    }
    const { admission } = record.meta;
    if (record.groupId !== groupId || admission.group_id !== groupId)
      refusals.push(new SyncRefusal(file, 'an admission to another group'));
    else if (basename(file) !== `${admission.machine.id}.age`)
      refusals.push(new SyncRefusal(file, 'its name is not its machine id'));
    else if (record.signer !== admission.machine.publicKey)
      refusals.push(new SyncRefusal(file, 'not signed by the machine it admits'));
    else claims.push({ machine: admission.machine, meta: record.meta, file });
  }
  return claims;
}

const byAdmission = (a: MachineClaim, b: MachineClaim): number =>
  Date.parse(a.meta.admission.signed_at) - Date.parse(b.meta.admission.signed_at) ||
  (a.machine.id < b.machine.id ? -1 : a.machine.id > b.machine.id ? 1 : 0);

/** Why an admission under an accepted invite is refused, or undefined when it is admitted. */
function admissionRefused(
  claim: MachineClaim,
  invite: InviteMeta,
  members: readonly Machine[],
  used: ReadonlyMap<string, Machine>,
): string | undefined {
  const { admission, code_signature: codeSignature } = claim.meta;
  if (verifyBytes(invite.code_public_key, admissionPayload(admission), codeSignature) !== true)
    return "not signed with its invite's code";
  if (!(Date.parse(admission.signed_at) <= Date.parse(invite.expires)))
    return `admitted after its invite expired (${invite.expires})`;
  const winner = used.get(admission.invite_id);
  if (winner) return `its invite was used already, by machine ${winner.id} (${winner.name})`;
  if (members.some((m) => m.id === claim.machine.id || m.publicKey === claim.machine.publicKey))
    return 'a machine id or key already in the roster';
  return undefined;
}

/**
 * Reads and verifies the roster of DIR: the founder's record must be signed by the pinned
 * founder key; an invite counts when a member signed it; a machine is admitted when its record
 * is signed by its own key and by the key of an invite's code, before the invite expired, and
 * is the first admission under that invite (earliest signed_at, then smallest machine id: every
 * machine decides alike from the same files). Repeated until nothing changes, since an invite
 * made by a machine counts only once that machine is admitted. Everything else is a refusal.
 */
export async function readRoster(
  dir: string,
  pin: GroupPin,
  identities: readonly string[],
): Promise<Roster> {
  const founderRecord = await founderOf(dir, pin, identities);
  const groupId = pin.group_id;
  const refusals: SyncRefusal[] = [];
  const invites = await inviteClaims(dir, groupId, identities, refusals);
  const claims = await machineClaims(dir, groupId, identities, refusals);
  const members: Machine[] = [founderRecord.meta.machine];
  const accepted = new Map<string, { meta: InviteMeta; file: string }>();
  const used = new Map<string, Machine>();
  const settled = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const invite of invites) {
      if (accepted.has(invite.meta.invite_id)) continue;
      const inviter = members.find((m) => m.publicKey === invite.signer);
      if (inviter?.id !== invite.meta.inviter_id) continue;
      accepted.set(invite.meta.invite_id, { meta: invite.meta, file: invite.file });
      changed = true;
    }
    const ready = claims
      .filter((c) => !settled.has(c.file) && accepted.has(c.meta.admission.invite_id))
      .sort(byAdmission);
    for (const claim of ready) {
      settled.add(claim.file);
      changed = true;
      const invite = accepted.get(claim.meta.admission.invite_id);
      if (!invite) continue;
      const reason = admissionRefused(claim, invite.meta, members, used);
      if (reason) refusals.push(new SyncRefusal(claim.file, reason));
      else {
        used.set(claim.meta.admission.invite_id, claim.machine);
        members.push(claim.machine);
      }
    }
  }
  for (const invite of invites)
    if (!accepted.has(invite.meta.invite_id))
      refusals.push(new SyncRefusal(invite.file, 'signed by a key that is not in the roster'));
  for (const claim of claims)
    if (!settled.has(claim.file))
      refusals.push(new SyncRefusal(claim.file, 'admitted under an invite that no member signed'));
  return {
    groupId,
    groupRecipient: founderRecord.meta.group_recipient,
    founder: founderRecord.meta.machine,
    members,
    invites: accepted,
    used,
    refusals,
  };
}
