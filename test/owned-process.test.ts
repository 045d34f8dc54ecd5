import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (Date.now() < until) {
    if (!alive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return !alive(pid);
}

describe('processes a test starts', () => {
  it('a serve started in a beforeAll that then fails does not outlive its test file, and the afterAll adds no second error', async () => {
    const out = tempDir();
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
        'run',
        '--config',
        'test/support/leak-probe.config.ts',
      ],
      { cwd: ROOT, env: { ...process.env, CHATGRAPH_LEAK_PROBE: out }, encoding: 'utf8' },
    );
    expect(run.status).not.toBe(0);
    // The set-up's error is the one reported; the afterAll's close of what was never made is not.
    expect(run.stdout + run.stderr).toContain('the browser did not launch');
    expect(run.stdout + run.stderr).not.toMatch(/Cannot read properties of undefined/);
    const pid = Number(readFileSync(join(out, 'pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    const ended = await gone(pid, 3000);
    if (!ended) process.kill(pid, 'SIGKILL');
    expect(ended).toBe(true);
  }, 90_000);

  it('a process started through the tether stops when its parent is killed with -9', async () => {
    const tether = join(ROOT, 'test', 'support', 'tether.mjs');
    // A parent that starts a long-lived tethered child, says its pid, and waits.
    const parent = spawn(
      process.execPath,
      [
        '-e',
        `const c = require('node:child_process').spawn(process.execPath, ['--import', ${JSON.stringify(tether)}, '-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore', env: { ...process.env, CHATGRAPH_TETHER_PARENT: String(process.pid) } }); console.log(c.pid); setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const pid = await new Promise<number>((resolve) => {
      parent.stdout.once('data', (chunk: Buffer) => {
        resolve(Number(chunk.toString().trim()));
      });
    });
    expect(alive(pid)).toBe(true);
    parent.kill('SIGKILL');
    const ended = await gone(pid, 3000);
    if (!ended) process.kill(pid, 'SIGKILL');
    expect(ended).toBe(true);
  });
});
