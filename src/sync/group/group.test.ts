import { spawn, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Decrypter } from 'age-encryption';
import { afterEach, describe, expect, it } from 'vitest';
import { provisioned } from '../../../test/support/provisioned.js';
import { groupLayout } from './folder-layout.js';
import { configDir, inviteMachine, joinGroup, openGroup, SyncRefusal } from './index.js';

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
      expect(group.members.map((m) => m.name).sort()).toEqual(['desktop', 'laptop', 'work']);
      expect(group.refusals).toEqual([]);
    }
    for (const sealer of groups) {
      const sealed = sealer.seal(Buffer.from(`from ${sealer.self.name}`));
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

  it('closes a spent invite once, whichever member opens the group', async () => {
    const dir = temp();
    const [a, b] = [temp(), temp()];
    await openGroup(dir, { configDir: a, create: true });
    const expiring = await inviteMachine(dir, { configDir: a, expiresInMs: 1000, ...FAST });
    const later = () => new Date(Date.now() + 60_000);
    const keyFiles = () =>
      files(dir)
        .filter((f) => f.endsWith('.code.age'))
        .map((f) => readFileSync(f).toString('base64'))
        .sort();
    // A closes the expired invite before B joins: B is not among that file's recipients.
    await openGroup(dir, { configDir: a, create: false, now: later });
    const { code } = await inviteMachine(dir, { configDir: a, ...FAST });
    await joinGroup(dir, code, { configDir: b, ...FAST });
    const closed = keyFiles();
    await openGroup(dir, { configDir: b, create: false, now: later });
    await openGroup(dir, { configDir: a, create: false, now: later });
    expect(keyFiles()).toEqual(closed);
    await expect(joinGroup(dir, expiring.code, { configDir: temp(), ...FAST })).rejects.toThrow(
      /this invite is closed: expired at/,
    );
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
    // Some group's files without the founder record (a sync tool half way): no second group.
    rmSync(groupLayout(dir).founder);
    await expect(openGroup(dir, { configDir: temp(), create: true })).rejects.toThrow(
      /refused .*\.group: this folder holds a sync group's files but not its founder record/,
    );
    const exportsOnly = temp();
    mkdirSync(join(exportsOnly, '0f8fad5b-d9cb-469f-a165-70867728950e'));
    await expect(openGroup(exportsOnly, { configDir: temp(), create: true })).rejects.toThrow(
      /refused .*0f8fad5b-d9cb-469f-a165-70867728950e: this folder holds/,
    );
  });
});

describe('the group files, from a shell and other tools', () => {
  it('opens every file of DIR with the identity file, by the age CLI and age-encryption', async () => {
    const { dir, configs } = await threeMachines();
    const identityFile = join(configs.c, 'sync', 'age-identity.txt');
    const identities = readFileSync(identityFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('AGE-SECRET-KEY-1'));
    // `npm run provision` installs the age CLI (Debian's `age`): a test never skips for want of it.
    const age = spawnSync('which', ['age'], { encoding: 'utf8' }).stdout.trim();
    if (!age)
      throw new Error('the age CLI is missing: run `npm run provision` (apt-get install age)');
    for (const file of files(dir)) {
      const decrypter = new Decrypter();
      for (const identity of identities) decrypter.addIdentity(identity);
      const text = await decrypter.decrypt(readFileSync(file), 'text');
      expect(JSON.parse(text)).toMatchObject({ schema: 'portable-ai-memory' });
      const run = spawnSync(age, ['-d', '-i', identityFile, file], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe(text);
    }
  });

  it('decrypted, every group file passes the official pam validate', async () => {
    const { dir, configs } = await threeMachines();
    await inviteMachine(dir, { configDir: configs.a, ...FAST }); // an open invite too
    const pam = provisioned('.venv-pam', 'bin', 'pam');
    const plain = temp();
    const group = await openGroup(dir, { configDir: configs.a, create: false });
    // One file of each record type (all are written by one function, records.ts): nine Python
    // processes took 13 s on this shared machine, five take about half.
    const byType = new Map<string, { file: string; out: string }>();
    for (const [i, file] of files(dir).entries()) {
      const text = Buffer.from(await group.open(readFileSync(file), file)).toString();
      const type = String(
        (JSON.parse(text) as { memories: { custom_type: string }[] }).memories[0]?.custom_type,
      );
      const out = join(plain, `${i}.json`);
      writeFileSync(out, text);
      byType.set(`${type}${text.includes('closed:') ? ' (closed)' : ''}`, { file, out });
    }
    expect([...byType.keys()].sort()).toEqual([
      'chatgraph-machine',
      'chatgraph-sync-founder',
      'chatgraph-sync-invite',
      'chatgraph-sync-invite-closed (closed)',
      'chatgraph-sync-invite-key',
    ]);
    const written = [...byType.values()];
    const runs = await Promise.all(
      written.map(
        ({ file, out }) =>
          new Promise<{ file: string; status: number | null; output: string }>((resolve) => {
            const child = spawn(pam, ['validate', out], {
              env: { ...process.env, NO_COLOR: '1', COLUMNS: '200' },
            });
            let output = '';
            child.stdout.on('data', (d: Buffer) => (output += d.toString()));
            child.stderr.on('data', (d: Buffer) => (output += d.toString()));
            child.on('close', (status) => {
              resolve({ file, status, output });
            });
          }),
      ),
    );
    for (const run of runs)
      expect({ file: run.file, status: run.status, output: run.output }).toMatchObject({
        status: 0,
      });
  });

  it('finds the config folder as XDG says', () => {
    expect(configDir({ XDG_CONFIG_HOME: '/x/conf' })).toBe('/x/conf/chatgraph');
    expect(configDir({ XDG_CONFIG_HOME: 'relative', HOME: '/home/u' })).toBe(
      '/home/u/.config/chatgraph',
    );
    expect(configDir({})).toBe(join(homedir(), '.config', 'chatgraph'));
  });
});

describe('what a new machine reads', () => {
  it('opens files sealed before it joined (the group key), and seals to the roster of its time', async () => {
    const dir = temp();
    const [a, b] = [temp(), temp()];
    const founder = await openGroup(dir, { configDir: a, create: true });
    const before = founder.seal(Buffer.from('written before b joined'));
    const { code } = await inviteMachine(dir, { configDir: a, ...FAST });
    const joined = await joinGroup(dir, code, { configDir: b, ...FAST });
    expect(Buffer.from(await joined.open(before)).toString()).toBe('written before b joined');
    const stranger = await openGroup(temp(), { configDir: temp(), create: true });
    const foreign = stranger.seal(Buffer.from('not for this group'));
    await expect(joined.open(foreign, 'DIR/x/export.age')).rejects.toThrow(
      /refused DIR\/x\/export\.age: this machine cannot open it/,
    );
    expect(groupLayout(dir).machine(joined.self.id)).toContain(joined.self.id);
  });
});
