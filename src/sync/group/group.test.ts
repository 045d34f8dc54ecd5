import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Decrypter } from 'age-encryption';
import { afterEach, describe, expect, it } from 'vitest';
import { groupLayout } from './folder-layout.js';
import {
  configDir,
  inviteMachine,
  joinGroup,
  openGroup,
  SyncRefusal,
  type SyncGroup,
} from './index.js';

// scrypt at 2^10 in tests only: the code's cost in use is 2^18 (invite-code.ts).
const FAST = { scryptLogN: 10 } as const;
const temps: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cg-group-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

async function threeMachines() {
  const dir = temp();
  const [a, b, c] = [temp(), temp(), temp()];
  const groupA = await openGroup(dir, { configDir: a, create: true, name: 'laptop' });
  const invite1 = await inviteMachine(dir, { configDir: a, ...FAST });
  const groupB = await joinGroup(dir, invite1.code, { configDir: b, name: 'desktop', ...FAST });
  const invite2 = await inviteMachine(dir, { configDir: b, ...FAST });
  const groupC = await joinGroup(dir, invite2.code, { configDir: c, name: 'work', ...FAST });
  return { dir, configs: { a, b, c }, groups: [groupA, groupB, groupC] as const };
}

describe('the sync group', () => {
  it('founds, invites and joins twice; every member opens what each seals', async () => {
    const { dir, configs } = await threeMachines();
    const groups = await Promise.all(
      Object.values(configs).map((config) => openGroup(dir, { configDir: config, create: false })),
    );
    for (const group of groups) {
      expect(group.members.map((m) => m.name)).toEqual(['laptop', 'desktop', 'work']);
      expect(group.refusals).toEqual([]);
    }
    for (const sealer of groups) {
      const sealed = await sealer.seal(Buffer.from(`from ${sealer.self.name}`));
      for (const opener of groups)
        expect(Buffer.from(await opener.open(sealed)).toString()).toBe(`from ${sealer.self.name}`);
      for (const other of groups)
        expect(other.trusts(sealer.self.publicKey)?.id).toBe(sealer.self.id);
    }
    expect(groups[0]?.trusts(groups[0].self.publicKey.replace(/.$/, 'x'))).toBeUndefined();
  });

  it('keeps the keys in the config folder, private, and names only public keys in DIR', async () => {
    const { dir, configs } = await threeMachines();
    const keys = join(configs.a, 'sync');
    expect(statSync(keys).mode & 0o777).toBe(0o700);
    for (const name of ['machine.json', 'age-identity.txt', 'signing-key.pem'])
      expect(statSync(join(keys, name)).mode & 0o777).toBe(0o600);
    const identity = readFileSync(join(keys, 'age-identity.txt'), 'utf8');
    for (const file of files(dir)) {
      const bytes = readFileSync(file);
      expect(bytes.subarray(0, 21).toString()).toBe('age-encryption.org/v1');
      expect(bytes.includes('AGE-SECRET-KEY')).toBe(false);
      expect(bytes.includes('laptop')).toBe(false);
      for (const line of identity.split('\n').filter((l) => l.startsWith('AGE-SECRET')))
        expect(bytes.includes(line)).toBe(false);
    }
  });

  it('refuses a wrong, a used and an expired code, naming the file', async () => {
    const dir = temp();
    const [a, b, c, d] = [temp(), temp(), temp(), temp()];
    await openGroup(dir, { configDir: a, create: true });
    const used = await inviteMachine(dir, { configDir: a, ...FAST });
    await joinGroup(dir, used.code, { configDir: b, ...FAST });
    const again = joinGroup(dir, used.code, { configDir: c, ...FAST });
    await expect(again).rejects.toThrow(SyncRefusal);
    await expect(again).rejects.toThrow(/refused .*\.code\.age: this invite is closed: used by/);

    await expect(
      joinGroup(dir, 'AAAAA-BBBBB-CCCCC-DDDDD', { configDir: c, ...FAST }),
    ).rejects.toThrow(/refused .*invites: no invite in this folder opens with this code/);
    await expect(joinGroup(dir, 'hello', { configDir: c, ...FAST })).rejects.toThrow(
      /not an invite code/,
    );

    const now = Date.now();
    const expiring = await inviteMachine(dir, { configDir: a, expiresInMs: 1000, ...FAST });
    const later = () => new Date(now + 60_000);
    await expect(
      joinGroup(dir, expiring.code, { configDir: d, now: later, ...FAST }),
    ).rejects.toThrow(/refused .*\.code\.age: this invite expired at/);
    // A member's next open closes it: the group's key is no longer behind the code.
    await openGroup(dir, { configDir: a, create: false, now: later });
    await expect(joinGroup(dir, expiring.code, { configDir: d, ...FAST })).rejects.toThrow(
      /this invite is closed: expired at/,
    );
    // Typed loosely (case, spaces, O for 0) a good code still works.
    const loose = await inviteMachine(dir, { configDir: a, ...FAST });
    const typed = loose.code.toLowerCase().replace(/-/g, ' ');
    const group = await joinGroup(dir, typed, { configDir: d, ...FAST });
    expect(group.members).toHaveLength(3);
  });

  it('refuses a machine that is not a member, and a folder with no group', async () => {
    const dir = temp();
    await openGroup(dir, { configDir: temp(), create: true });
    await expect(openGroup(dir, { configDir: temp(), create: true })).rejects.toThrow(
      /refused .*founder\.age: this machine is not in the sync group/,
    );
    await expect(openGroup(temp(), { configDir: temp(), create: false })).rejects.toThrow(
      /no sync group in this folder/,
    );
  });
});

export { files, threeMachines, temp, FAST };
export type { SyncGroup };
void execFileSync;
void spawnSync;
void writeFileSync;
void relative;
void Decrypter;
void groupLayout;
void configDir;
