import {
  cpSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGroup } from '../src/api/sync.js';
import { memoryIo } from '../src/cli/cli-io.js';
import { runSync } from '../src/cli/commands/sync.js';
import { DataFolder } from '../src/index.js';
import { createSigningKey } from '../src/trust/signing-key.js';
import { writeSyncExport } from '../src/sync/write-export.js';
import { tempDir } from './support/convert-to-temp.js';
import { pamValidate } from './support/pam-sdk.js';
import {
  chatExport,
  holdings,
  joinMachines,
  syncOnce,
  type TestMachine,
} from './support/sync-machines.js';

const root = tempDir('chatgraph-sync-refused-');
const dir = join(root, 'shared');
const machines: TestMachine[] = ['A', 'B', 'C'].map((name) => ({
  name,
  data: join(root, `data-${name}`),
  config: join(root, `xdg-${name}`, 'chatgraph'),
}));
const [A, B, C] = machines as [TestMachine, TestMachine, TestMachine];
const SENTENCE = 'Tell me about persimmon please';

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

// B's sync as the CLI runs it (in process): its report, stderr lines and exit code.
async function syncB(): Promise<{ code: number; stderr: string[] }> {
  const io = memoryIo();
  await runSync(dir, { dataDir: B.data, json: true }, io, { XDG_CONFIG_HOME: dirname(B.config) });
  return { code: io.exitCode, stderr: io.stderr };
}

let aExport = '';
let aConversation = '';

beforeAll(async () => {
  for (const m of machines) mkdirSync(m.config, { recursive: true });
  const folder = await DataFolder.open(A.data);
  await folder.import([chatExport(join(root, 'in', 'conversations.json'), 'p-1', 'persimmon')]);
  await folder.remember({ content: 'Persimmons ripen after frost', type: 'fact' });
  await folder.close();
  await joinMachines(dir, machines);
  await syncOnce(A, dir);
  const mine = readdirSync(dir).find((n) => !n.startsWith('.'));
  aExport = join(dir, mine ?? '', '00000001');
  const conversations = join(aExport, 'conversations');
  aConversation = join(conversations, readdirSync(conversations)[0] ?? '');
}, 60_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('chatgraph sync refuses what its group did not write as it is', () => {
  it('refuses a file edited after it was written, names it, imports nothing of its export, and takes it once it is whole again', async () => {
    const bytes = readFileSync(aConversation);
    const edited = Buffer.from(bytes);
    edited[edited.length - 20] = (edited[edited.length - 20] ?? 0) ^ 0xff;
    writeFileSync(aConversation, edited);
    const refused = await syncB();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toHaveLength(1);
    expect(refused.stderr[0]).toMatch(/refused/);
    expect(refused.stderr[0]).toContain(relative(root, aConversation).split('/').at(-1));
    expect(await holdings(B.data)).toEqual({ conversations: [], memories: [] });
    writeFileSync(aConversation, bytes);
    expect((await syncB()).code).toBe(0);
    expect((await holdings(B.data)).conversations).toHaveLength(1);
  }, 60_000);

  it('refuses a file replaced by another the group sealed, and an export signed by a key not in the group or by another member', async () => {
    const original = readFileSync(aConversation);
    const group = await openGroup(dir, { configDir: A.config, create: false });
    writeFileSync(aConversation, group.seal(new TextEncoder().encode('{"schema":"x"}')));
    // Sealed to the group (age: anyone can seal to its recipients), signed by a stranger.
    const stranger = await createSigningKey(join(root, 'stranger.pem'));
    const folder = await DataFolder.open(A.data);
    const machineDir = dirname(aExport);
    await writeSyncExport(
      folder,
      {
        ...group,
        seal: (p) => group.seal(p),
        open: (s) => group.open(s),
        trusts: (k) => group.trusts(k),
        signingKey: () => stranger,
      },
      { machineDir, seq: 7, base: null, deletions: [], now: new Date() },
    );
    // Signed by B (a member), but written into A's folder.
    const asB = await openGroup(dir, { configDir: B.config, create: false });
    await writeSyncExport(folder, asB, {
      machineDir,
      seq: 8,
      base: null,
      deletions: [],
      now: new Date(),
    });
    await folder.close();
    const before = await holdings(C.data);
    const io = memoryIo();
    await runSync(dir, { dataDir: C.data }, io, { XDG_CONFIG_HOME: dirname(C.config) });
    expect(io.exitCode).toBe(1);
    expect(io.stderr).toHaveLength(3);
    expect(io.stderr.every((line) => line.includes('refused'))).toBe(true);
    expect(io.stderr[0]).toContain(aConversation);
    expect(io.stderr[1]).toMatch(/00000007.*not in the group/);
    expect(io.stderr[2]).toMatch(/00000008.*not by the machine whose folder/);
    expect(await holdings(C.data)).toEqual(before);
    writeFileSync(aConversation, original);
    rmSync(join(machineDir, '00000007'), { recursive: true });
    rmSync(join(machineDir, '00000008'), { recursive: true });
  }, 60_000);

  it('passes by sync tools’ temporary files and conflicted copies: nothing taken twice', async () => {
    // C takes A's export, now whole again.
    expect((await syncOnce(C, dir)).problems).toEqual([]);
    const before = await holdings(C.data);
    expect(before.conversations).toHaveLength(1);
    expect(before.memories).toHaveLength(1);
    const parent = dirname(aExport);
    cpSync(aExport, join(parent, '00000001 (conflicted copy 2026-12-06)'), { recursive: true });
    cpSync(aExport, join(parent, '00000009.sync-conflict-20261206-120000-ABCDEFG'), {
      recursive: true,
    });
    const store = join(aExport, 'memory-store.json.age');
    cpSync(store, join(aExport, 'memory-store.sync-conflict-20261206-120000-ABCDEFG.json.age'));
    cpSync(store, join(aExport, '.syncthing.memory-store.json.age.tmp'));
    cpSync(
      aConversation,
      `${aConversation.slice(0, -'.json.age'.length)} (Case Conflict).json.age`,
    );
    // A half-copied export of A: its conversations there, its store still on the way.
    cpSync(aExport, join(parent, '00000010'), { recursive: true });
    renameSync(
      join(parent, '00000010', 'memory-store.json.age'),
      join(parent, '00000010', '~syncthing~memory-store.json.age.tmp'),
    );
    const io = memoryIo();
    await runSync(dir, { dataDir: C.data, json: true }, io, { XDG_CONFIG_HOME: dirname(C.config) });
    expect(io.stderr).toEqual([]);
    expect(io.exitCode).toBe(0);
    expect(await holdings(C.data)).toEqual(before);
    rmSync(join(parent, '00000010'), { recursive: true });
  }, 60_000);

  it('leaves no sentence of a conversation readable in DIR, and every file decrypted is PAM that pam validate accepts', async () => {
    // An export that carries a deletion (an index entry tagged chatgraph-deleted) among them.
    const folder = await DataFolder.open(A.data);
    await folder.delete(Object.keys((await folder.syncDigests()).conversations)[0] ?? '');
    await folder.close();
    expect((await syncOnce(A, dir)).sent).toMatchObject({ deletions: 1 });
    const files = filesUnder(dir);
    expect(files.some((f) => readFileSync(f).includes(SENTENCE))).toBe(false);
    const group = await openGroup(dir, { configDir: C.config, create: false });
    const plain = join(root, 'plain');
    let opened = 0;
    for (const file of files) {
      const rel = relative(dir, file);
      if (rel.startsWith('.group') || !file.endsWith('.age') || /\(|sync-conflict/.test(rel))
        continue;
      const to = join(plain, rel.slice(0, -'.age'.length));
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, await group.open(readFileSync(file)));
      opened++;
    }
    expect(opened).toBeGreaterThanOrEqual(3);
    expect(filesUnder(plain).some((f) => readFileSync(f).includes(SENTENCE))).toBe(true);
    // Each export folder as a bundle (pam validates each of its files), and a file alone.
    const decrypted = filesUnder(plain);
    let validated = 0;
    for (const machine of readdirSync(plain))
      for (const seq of readdirSync(join(plain, machine))) {
        const result = pamValidate(join(plain, machine, seq));
        expect(result.status, result.output).toBe(0);
        validated += Number(/(\d+) valid, 0 invalid/.exec(result.output)?.[1] ?? 0);
      }
    expect(validated).toBe(decrypted.length);
    for (const file of [decrypted[0] ?? '', decrypted.at(-1) ?? '']) {
      const result = pamValidate(file);
      expect(result.output).not.toMatch(/✗/);
      expect(result.status, result.output).toBe(0);
    }
  }, 60_000);
});
