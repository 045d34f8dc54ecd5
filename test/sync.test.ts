import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataFolder } from '../src/index.js';
import { openGroup, syncFolder } from '../src/api/sync.js';
import { tempDir } from './support/convert-to-temp.js';
import {
  chatExport,
  holdings,
  joinMachines,
  syncOnce,
  type TestMachine,
} from './support/sync-machines.js';

// Three machines' data folders made once (a conversation and a memory of each, and one
// conversation all three imported from the same export), copied for each case.
const root = tempDir('chatgraph-sync-');
const NAMES = ['A', 'B', 'C'] as const;
const WORDS = ['apricot', 'blueberry', 'cranberry'] as const;

beforeAll(async () => {
  const shared = chatExport(join(root, 'in-shared', 'conversations.json'), 'shared-1', 'quince');
  for (const [i, name] of NAMES.entries()) {
    const folder = await DataFolder.open(join(root, 'template', name));
    const own = chatExport(
      join(root, `in-${name}`, 'conversations.json'),
      `own-${name}`,
      WORDS[i] ?? '',
    );
    await folder.import([own, ...(name === 'C' ? [] : [shared])]);
    await folder.remember({ content: `The ${WORDS[i] ?? ''} jam needs less sugar`, type: 'fact' });
    await folder.close();
  }
}, 60_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

let cases = 0;

/** Fresh copies of the three machines joined in a new shared folder. */
async function threeMachines(): Promise<{ dir: string; machines: TestMachine[] }> {
  const at = join(root, `case-${String(++cases)}`);
  const machines = NAMES.map((name) => {
    const data = join(at, `data-${name}`);
    cpSync(join(root, 'template', name), data, { recursive: true });
    const config = join(at, `config-${name}`);
    mkdirSync(config, { recursive: true });
    return { name, data, config };
  });
  const dir = join(at, 'shared');
  await joinMachines(dir, machines);
  return { dir, machines };
}

const order = fc.shuffledSubarray([0, 1, 2], { minLength: 3, maxLength: 3 });

describe('chatgraph sync: three machines through one folder', () => {
  it('leaves the three with the same conversations, messages and memories after two rounds, in any order', async () => {
    await fc.assert(
      fc.asyncProperty(order, order, async (first, second) => {
        const { dir, machines } = await threeMachines();
        for (const i of [...first, ...second]) {
          const report = await syncOnce(machines[i] as TestMachine, dir);
          expect(report.problems).toEqual([]);
        }
        const [a, b, c] = await Promise.all(machines.map((m) => holdings(m.data)));
        expect(a?.conversations).toHaveLength(4);
        expect(a?.memories).toHaveLength(3);
        expect(b).toEqual(a);
        expect(c).toEqual(a);
      }),
      { numRuns: 3 },
    );
  }, 120_000);

  it('carries a deletion and a forgotten memory to the others in one round, the deleting machine first', async () => {
    const { dir, machines } = await threeMachines();
    for (const m of [...machines, ...machines]) await syncOnce(m, dir);
    const [a] = machines as [TestMachine, TestMachine, TestMachine];
    const folder = await DataFolder.open(a.data);
    const gone = Object.keys((await folder.syncDigests()).conversations)[0] ?? '';
    await folder.delete(gone);
    const memory = (await folder.memories()).items[0];
    await folder.forget(memory?.id ?? '');
    await folder.close();
    const reports = [];
    for (const m of machines) reports.push(await syncOnce(m, dir));
    expect(reports[0]?.sent).toMatchObject({ deletions: 1, memories: 1 });
    expect(reports.slice(1).map((r) => r.deleted)).toEqual([1, 1]);
    const [ha, hb, hc] = await Promise.all(machines.map((m) => holdings(m.data)));
    expect(ha?.conversations).toHaveLength(3);
    expect(ha?.conversations.some((c) => c.startsWith(`${gone}:`))).toBe(false);
    expect(ha?.memories.filter((m) => m.includes(':retracted:'))).toHaveLength(1);
    expect(hb).toEqual(ha);
    expect(hc).toEqual(ha);

    // --compact: A's exports folded into one full one, written first, the old ones removed.
    const group = await openGroup(dir, { configDir: a.config, create: false });
    const folderA = await DataFolder.open(a.data);
    const compacted = await syncFolder(folderA, group, dir, { compact: true });
    await folderA.close();
    expect(compacted.sent).toMatchObject({ exportType: 'full', conversations: 3, deletions: 1 });
    expect(compacted.compacted).toBeGreaterThan(0);
    expect(readdirSync(join(dir, group.self.id))).toHaveLength(1);
    for (const m of machines.slice(1)) expect((await syncOnce(m, dir)).problems).toEqual([]);
    const after = await Promise.all(machines.map((m) => holdings(m.data)));
    expect(after).toEqual([ha, ha, ha]);
  }, 60_000);
});
