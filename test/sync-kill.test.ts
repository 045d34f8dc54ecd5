import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DataFolder } from '../src/index.js';
import { tempDir } from './support/convert-to-temp.js';
import { CLI } from './support/run-cli.js';
import {
  chatExport,
  holdings,
  joinMachines,
  syncOnce,
  type TestMachine,
} from './support/sync-machines.js';

const root = tempDir('chatgraph-sync-kill-');
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

async function twoMachines(name: string): Promise<{ dir: string; a: TestMachine; b: TestMachine }> {
  const [a, b] = ['A', 'B'].map((m) => ({
    name: m,
    data: join(root, name, `data-${m}`),
    config: join(root, name, `xdg-${m}`, 'chatgraph'),
  })) as [TestMachine, TestMachine];
  for (const [i, m] of [a, b].entries()) {
    mkdirSync(m.config, { recursive: true });
    const folder = await DataFolder.open(m.data);
    const inputs = [0, 1].map((n) =>
      chatExport(
        join(root, name, `in-${m.name}${String(n)}`, 'conversations.json'),
        `${name}-${m.name}-${String(n)}`,
        `topic${String(i)}x${String(n)}`,
      ),
    );
    await folder.import(inputs);
    await folder.remember({ content: `${m.name} remembers the first thing`, type: 'fact' });
    await folder.close();
  }
  const dir = join(root, name, 'shared');
  await joinMachines(dir, [a, b]);
  return { dir, a, b };
}

// `chatgraph sync DIR` in a child process (the built CLI), killed with SIGKILL after `ms`.
function syncKilledAfter(machine: TestMachine, dir: string, ms: number): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, 'sync', dir, '--data-dir', machine.data], {
      env: { ...process.env, XDG_CONFIG_HOME: dirname(machine.config) },
      stdio: 'ignore',
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(signal ?? `exit ${String(code)}`);
    });
  });
}

describe('chatgraph sync cut off or run at once', () => {
  it('loses and duplicates nothing when a sync is killed (SIGKILL) at a random moment', async () => {
    const { dir, a, b } = await twoMachines('kill');
    await syncOnce(a, dir);
    // How long a whole sync takes in a child process here (B taking in A's export), so the
    // moments fall within one: fixed moments (0.3–2.5 s) missed every sync once the CLI started
    // faster.
    const started = Date.now();
    expect(await syncKilledAfter(b, dir, 60_000)).toBe('exit 0');
    const whole = Date.now() - started;
    // Random moments over a sync's life (start-up, export, import, state): 2 of each machine.
    const moments = fc.sample(
      fc.integer({ min: Math.max(20, Math.round(whole * 0.1)), max: Math.round(whole * 0.9) }),
      { numRuns: 4, seed: Date.now() },
    );
    const ends: string[] = [];
    for (const [i, ms] of moments.entries()) {
      const machine = i % 2 === 0 ? b : a;
      const folder = await DataFolder.open(machine.data);
      await folder.remember({
        content: `${machine.name} remembers thing ${String(i)}`,
        type: 'fact',
      });
      await folder.close();
      ends.push(await syncKilledAfter(machine, dir, ms));
    }
    // Killed at least once mid-way (a sync that ended first exits 0: also a moment).
    expect(ends, JSON.stringify(ends)).toContain('SIGKILL');
    for (const m of [a, b, a, b]) {
      const report = await syncOnce(m, dir);
      expect(
        report.problems.filter((p) => p.level !== 'pending'),
        JSON.stringify(ends),
      ).toEqual([]);
    }
    const [ha, hb] = await Promise.all([holdings(a.data), holdings(b.data)]);
    expect(ha.conversations, JSON.stringify(ends)).toHaveLength(4);
    expect(ha.memories).toHaveLength(6);
    expect(hb).toEqual(ha);
  }, 90_000);

  it('loses and duplicates nothing over twenty rounds of two machines syncing at the same moment', async () => {
    const { dir, a, b } = await twoMachines('together');
    for (let round = 0; round < 20; round++) {
      for (const m of [a, b]) {
        const folder = await DataFolder.open(m.data);
        await folder.remember({ content: `${m.name} round ${String(round)}`, type: 'fact' });
        await folder.close();
      }
      const reports = await Promise.all([syncOnce(a, dir), syncOnce(b, dir)]);
      for (const report of reports)
        expect(report.problems.filter((p) => p.level !== 'pending')).toEqual([]);
    }
    for (const m of [a, b, a]) await syncOnce(m, dir);
    const [ha, hb] = await Promise.all([holdings(a.data), holdings(b.data)]);
    expect(ha.conversations).toHaveLength(4);
    expect(ha.memories).toHaveLength(42);
    expect(hb).toEqual(ha);
  }, 120_000);
});
