import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { generateX25519Identity, identityToRecipient } from 'age-encryption';
import { writeFileAtomic } from '../../bundle/atomic-write.js';
import { SyncRefusal } from './errors.js';
import { groupLayout } from './folder-layout.js';
import { closeSpentInvites } from './invite.js';
import {
  machineIdentity,
  pinGroup,
  type GroupPin,
  type MachineIdentity,
} from './machine-identity.js';
import { pamTime, RECORD_TYPES, recordText } from './records.js';
import { readRoster } from './roster.js';
import {
  Group,
  nameOf,
  openAsMember,
  sealTo,
  selfOf,
  type GroupOptions,
  type SyncGroup,
} from './sealed-group.js';

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
  await writeFileAtomic(temp, sealTo([groupRecipient, self.recipient], text));
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

const MACHINE_FOLDER = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A file or folder that shows DIR is some group's already (`.group/`, a machine's export folder):
 * a machine whose sync tool has not brought the founder record yet must not found a second group
 * over the first.
 */
async function groupTraces(dir: string): Promise<string | undefined> {
  if (!existsSync(dir)) return undefined;
  const { root } = groupLayout(dir);
  if (existsSync(root)) return root;
  const machine = (await readdir(dir)).find((name) => MACHINE_FOLDER.test(name));
  return machine === undefined ? undefined : join(dir, machine);
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
    const stray = await groupTraces(dir);
    if (stray)
      throw new SyncRefusal(
        stray,
        "this folder holds a sync group's files but not its founder record (not synced here yet, or removed): no new group is started over it",
      );
    return found(dir, identity, now);
  }
  const { group, pin, roster } = await openAsMember(dir, identity);
  await closeSpentInvites(dir, identity, pin, roster, group, now);
  return group;
}
