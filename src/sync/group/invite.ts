import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { writeFileAtomic } from '../../bundle/atomic-write.js';
import type { SigningKey } from '../../trust/signing-key.js';
import { SyncRefusal } from './errors.js';
import { groupLayout, INVITE_KEY_NAME } from './folder-layout.js';
import { canonicalCode, codeKeys, newCode, SCRYPT } from './invite-code.js';
import { machineIdentity, type GroupPin, type MachineIdentity } from './machine-identity.js';
import { pamTime, RECORD_TYPES, recordText } from './records.js';
import { openText, type Roster } from './roster.js';
import {
  INVITE_LIFETIME_MS,
  nameOf,
  openAsMember,
  sealTo,
  type Group,
  type InviteOptions,
} from './sealed-group.js';

/**
 * A used or expired invite's key file is replaced by a closed record (sealed to the same code
 * recipient): the group's identity is no longer in DIR for whoever learns the code later, and a
 * joiner who types it is told why it no longer works.
 */
export async function closeSpentInvites(
  dir: string,
  identity: MachineIdentity,
  pin: GroupPin,
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
    // Already closed? Opened with the group's key: a machine that joined after the invite was
    // made is not among its own recipients (it rewrote a closed file at every sync).
    const text = await openText(file, [pin.group_identity, identity.ageIdentity]);
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

export async function writeClosed(
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
  await writeFileAtomic(file, sealTo([input.codeRecipient, ...input.recipients], text));
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
  await writeFileAtomic(layout.invite(inviteId), group.seal(Buffer.from(invite)));
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
    sealTo([keys.recipient, ...group.recipients], key),
  );
  return { code, expires };
}
