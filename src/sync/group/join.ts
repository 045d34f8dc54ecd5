import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../bundle/atomic-write.js';
import { signBytes } from '../../trust/signing-key.js';
import { SyncRefusal } from './errors.js';
import { groupLayout, INVITE_KEY_NAME } from './folder-layout.js';
import { writeClosed } from './invite.js';
import { canonicalCode, codeKeys, SCRYPT, type CodeKeys } from './invite-code.js';
import {
  machineIdentity,
  pinGroup,
  type GroupPin,
  type MachineIdentity,
} from './machine-identity.js';
import {
  inviteClosedMetaSchema,
  inviteKeyMetaSchema,
  pamTime,
  readRecord,
  RECORD_TYPES,
  recordText,
} from './records.js';
import { admissionPayload, openText, readRoster, type Roster } from './roster.js';
import {
  nameOf,
  openAsMember,
  pinOf,
  sealTo,
  selfOf,
  type GroupOptions,
  type SyncGroup,
} from './sealed-group.js';

/**
 * This machine joins the group of DIR with a code from `inviteMachine`: it finds the
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
  const { file, pin, inviteId, roster } = await verifiedInvite(dir, keys, identity, now);
  const self = selfOf(identity);
  const admission = {
    group_id: pin.group_id,
    invite_id: inviteId,
    machine: self,
    signed_at: pamTime(now),
  };
  const text = recordText({
    groupId: pin.group_id,
    type: RECORD_TYPES.machine,
    content: `chatgraph sync machine ${self.name} (${self.id}), joined by invite ${inviteId}`,
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
  await writeFileAtomic(layout.machine(self.id), sealTo(recipients, text));
  identity = await pinGroup(identity, pin);
  await writeClosed(file, {
    groupId: pin.group_id,
    inviteId,
    codeRecipient: keys.recipient,
    recipients,
    reason: `used by machine ${self.id} (${self.name})`,
    signer: identity.signing,
    now,
  });
  return (await openAsMember(dir, identity)).group;
}

/**
 * The invite the code opens, checked: open, not expired, signed by a member of the roster it
 * leads to, holding this code's key, not used.
 */
async function verifiedInvite(
  dir: string,
  keys: CodeKeys,
  identity: MachineIdentity,
  now: Date,
): Promise<{ file: string; pin: GroupPin; inviteId: string; roster: Roster }> {
  const layout = groupLayout(dir);
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
  return { file, pin, inviteId: meta.invite_id, roster };
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
