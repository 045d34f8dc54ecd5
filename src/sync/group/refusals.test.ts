import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decrypter, identityToRecipient } from 'age-encryption';
import { afterEach, describe, expect, it } from 'vitest';
import { signBytes } from '../../trust/signing-key.js';
import { groupLayout } from './folder-layout.js';
import { inviteMachine, joinGroup, openGroup, SyncRefusal } from './index.js';
import { codeKeys, newCode, canonicalCode } from './invite-code.js';
import { groupPinSchema, machineIdentity } from './machine-identity.js';
import { pamTime, RECORD_TYPES, recordText } from './records.js';
import { admissionPayload } from './roster.js';
import { sealTo } from './sealed-group.js';

const FAST = { scryptLogN: 10 } as const;
const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cg-refuse-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Founder A, B joined; what an attacker who holds DIR and the group's recipient could write. */
async function twoMachines() {
  const dir = temp();
  const [a, b] = [temp(), temp()];
  await openGroup(dir, { configDir: a, create: true, name: 'a' });
  const { code } = await inviteMachine(dir, { configDir: a, ...FAST });
  const groupB = await joinGroup(dir, code, { configDir: b, name: 'b', ...FAST });
  const groupsDir = join(a, 'sync', 'groups');
  const pin = groupPinSchema.parse(
    JSON.parse(readFileSync(join(groupsDir, readdirSync(groupsDir)[0] ?? ''), 'utf8')),
  );
  const groupRecipient = await identityToRecipient(pin.group_identity);
  return { dir, a, b, groupB, pin, groupRecipient };
}

async function refusalsOf(dir: string, config: string): Promise<Map<string, string>> {
  const group = await openGroup(dir, { configDir: config, create: false });
  return new Map(group.refusals.map((r) => [r.file, r.reason]));
}

describe('roster records that are refused, each named', () => {
  it('refuses a tampered admission (a flipped byte) and leaves that machine out', async () => {
    const { dir, a, b, groupB } = await twoMachines();
    const file = groupLayout(dir).machine(groupB.self.id);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 1;
    writeFileSync(file, bytes);
    const group = await openGroup(dir, { configDir: a, create: false });
    expect(group.members.map((m) => m.name)).toEqual(['a']);
    expect(group.refusals.map((r) => [r.file, r.message])).toEqual([
      [file, expect.stringMatching(/^refused .*\.age: this machine cannot open it/)],
    ]);
    expect(group.trusts(groupB.self.publicKey)).toBeUndefined();
    // B itself is out of the roster it reads: it says so rather than syncing.
    const own = openGroup(dir, { configDir: b, create: false });
    await expect(own).rejects.toThrow(SyncRefusal);
    await expect(own).rejects.toThrow(
      `refused ${file}: this machine is not in the verified roster`,
    );
  });

  it('refuses an admission changed and sealed again (its signature no longer verifies)', async () => {
    const { dir, a, groupB, pin, groupRecipient } = await twoMachines();
    const file = groupLayout(dir).machine(groupB.self.id);
    const decrypter = new Decrypter();
    decrypter.addIdentity(pin.group_identity);
    const text = await decrypter.decrypt(readFileSync(file), 'text');
    const changed = text.replace(`"name": "b"`, `"name": "evil"`);
    expect(changed).not.toBe(text);
    writeFileSync(file, sealTo([groupRecipient], changed));
    const refusals = await refusalsOf(dir, a);
    expect(refusals.get(file)).toMatch(/changed after signing/);
  });

  it('refuses an invite and an admission signed by a stranger, and a forged code signature', async () => {
    const { dir, a, pin, groupRecipient } = await twoMachines();
    const layout = groupLayout(dir);
    const stranger = await machineIdentity(temp(), { name: 'stranger' });
    const now = new Date();
    // An invite signed by the stranger's key (not in the roster).
    const inviteId = randomUUID();
    const keys = await codeKeys(canonicalCode(newCode()) ?? '', FAST.scryptLogN);
    const invite = recordText({
      groupId: pin.group_id,
      type: RECORD_TYPES.invite,
      content: 'an invite',
      metadata: {
        group_id: pin.group_id,
        invite_id: inviteId,
        inviter_id: stranger.id,
        code_public_key: keys.signing.publicKey,
        code_recipient: keys.recipient,
        expires: pamTime(new Date(now.getTime() + 3600_000)),
        scrypt: { log_n: 10, r: 8, p: 1 },
      },
      signer: stranger.signing,
      now,
    });
    writeFileSync(layout.invite(inviteId), sealTo([groupRecipient], invite));
    // The stranger admitting itself under that invite, with the code's signature.
    const self = {
      id: stranger.id,
      name: stranger.name,
      recipient: stranger.recipient,
      publicKey: stranger.signing.publicKey,
    };
    const admission = {
      group_id: pin.group_id,
      invite_id: inviteId,
      machine: self,
      signed_at: pamTime(now),
    };
    const record = recordText({
      groupId: pin.group_id,
      type: RECORD_TYPES.machine,
      content: 'a machine',
      metadata: { admission, code_signature: signBytes(keys.signing, admissionPayload(admission)) },
      signer: stranger.signing,
      now,
    });
    writeFileSync(layout.machine(stranger.id), sealTo([groupRecipient], record));
    // A second stranger under B's (real, used) invite with a code signature of its own making.
    const other = await machineIdentity(temp(), { name: 'other' });
    const group = await openGroup(dir, { configDir: a, create: false });
    const used =
      readdirSync(layout.invites).find(
        (n) => /^[0-9a-f-]{36}\.age$/.test(n) && n !== `${inviteId}.age`,
      ) ?? '';
    const otherSelf = {
      id: other.id,
      name: other.name,
      recipient: other.recipient,
      publicKey: other.signing.publicKey,
    };
    const forged = {
      group_id: pin.group_id,
      invite_id: used.replace('.age', ''),
      machine: otherSelf,
      signed_at: pamTime(now),
    };
    const forgedRecord = recordText({
      groupId: pin.group_id,
      type: RECORD_TYPES.machine,
      content: 'a machine',
      metadata: {
        admission: forged,
        code_signature: signBytes(other.signing, admissionPayload(forged)),
      },
      signer: other.signing,
      now,
    });
    writeFileSync(layout.machine(other.id), sealTo([groupRecipient], forgedRecord));

    const after = await openGroup(dir, { configDir: a, create: false });
    expect(after.members.map((m) => m.name)).toEqual(group.members.map((m) => m.name));
    const refusals = new Map(after.refusals.map((r) => [r.file, r.reason]));
    expect(refusals.get(layout.invite(inviteId))).toBe('signed by a key that is not in the roster');
    expect(refusals.get(layout.machine(stranger.id))).toBe(
      'admitted under an invite that no member signed',
    );
    expect(refusals.get(layout.machine(other.id))).toBe("not signed with its invite's code");
    expect(after.trusts(stranger.signing.publicKey)).toBeUndefined();
    for (const r of after.refusals) expect(r.message).toMatch(new RegExp(`^refused ${r.file}: `));
  });

  it('refuses a second admission under a used invite, and one after the invite expired', async () => {
    const { dir, a, pin, groupRecipient } = await twoMachines();
    const layout = groupLayout(dir);
    const decrypter = new Decrypter();
    decrypter.addIdentity(pin.group_identity);
    /** The invite whose code is `code`, found as a member finds it: by the code's public key. */
    const inviteOf = async (code: string) => {
      const keys = await codeKeys(canonicalCode(code) ?? '', FAST.scryptLogN);
      for (const name of readdirSync(layout.invites).filter((n) =>
        /^[0-9a-f-]{36}\.age$/.test(n),
      )) {
        const text = await decrypter.decrypt(readFileSync(join(layout.invites, name)), 'text');
        if (text.includes(keys.signing.publicKey)) return { keys, id: name.replace('.age', '') };
      }
      throw new Error('no invite of that code');
    };
    /** A machine of the test's making admitted under `inviteId`, its code signature good. */
    const admit = async (
      name: string,
      inviteId: string,
      keys: Awaited<ReturnType<typeof codeKeys>>,
      when: Date,
    ) => {
      const m = await machineIdentity(temp(), { name });
      const self = { id: m.id, name, recipient: m.recipient, publicKey: m.signing.publicKey };
      const admission = {
        group_id: pin.group_id,
        invite_id: inviteId,
        machine: self,
        signed_at: pamTime(when),
      };
      const text = recordText({
        groupId: pin.group_id,
        type: RECORD_TYPES.machine,
        content: name,
        metadata: {
          admission,
          code_signature: signBytes(keys.signing, admissionPayload(admission)),
        },
        signer: m.signing,
        now: when,
      });
      writeFileSync(layout.machine(m.id), sealTo([groupRecipient], text));
      return layout.machine(m.id);
    };

    const used = await inviteMachine(dir, { configDir: a, ...FAST });
    const usedInvite = await inviteOf(used.code);
    const first = await joinGroup(dir, used.code, { configDir: temp(), name: 'first', ...FAST });
    const second = await admit(
      'second',
      usedInvite.id,
      usedInvite.keys,
      new Date(Date.now() + 60_000),
    );

    const expiring = await inviteMachine(dir, { configDir: a, expiresInMs: 1000, ...FAST });
    const expired = await inviteOf(expiring.code);
    const late = await admit('late', expired.id, expired.keys, new Date(Date.now() + 3600_000));

    const group = await openGroup(dir, { configDir: a, create: false });
    // Admissions are ordered by date, then machine id (random): b and first may come either way.
    expect(group.members.map((m) => m.name).sort()).toEqual(['a', 'b', 'first']);
    const refusals = new Map(group.refusals.map((r) => [r.file, r.reason]));
    expect(refusals.get(second)).toBe(
      `its invite was used already, by machine ${first.self.id} (first)`,
    );
    expect(refusals.get(late)).toMatch(/^admitted after its invite expired/);
    expect(refusals.size).toBe(2);
  });

  it('refuses to open a group whose founder record was replaced', async () => {
    const { dir, a, groupRecipient } = await twoMachines();
    const stranger = await machineIdentity(temp(), { name: 'stranger' });
    const groupId = randomUUID();
    const text = recordText({
      groupId,
      type: RECORD_TYPES.founder,
      content: 'a founder',
      metadata: {
        group_id: groupId,
        group_recipient: groupRecipient,
        machine: {
          id: stranger.id,
          name: 'x',
          recipient: stranger.recipient,
          publicKey: stranger.signing.publicKey,
        },
      },
      signer: stranger.signing,
      now: new Date(),
    });
    writeFileSync(groupLayout(dir).founder, sealTo([groupRecipient], text));
    await expect(openGroup(dir, { configDir: a, create: false })).rejects.toThrow(
      /refused .*founder\.age: this machine is not in the sync group/,
    );
  });
});
