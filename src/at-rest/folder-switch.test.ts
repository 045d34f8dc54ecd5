import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitPlan, recoverLocked, type Step } from './folder-switch.js';
import { layoutOf } from '../folder/layout.js';

const root = mkdtempSync(join(tmpdir(), 'chatgraph-switch-'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A folder in its old form (two plain files), with its new form staged beside and a plan. */
async function staged(name: string, withPlan: boolean): Promise<{ dir: string; steps: Step[] }> {
  const dir = join(root, name);
  const stage = layoutOf(dir).staging.encrypt;
  mkdirSync(join(stage, 'bundle'), { recursive: true });
  mkdirSync(join(dir, 'bundle'), { recursive: true });
  for (const file of ['a', 'b']) {
    writeFileSync(join(dir, 'bundle', `${file}.json`), `plain ${file}`);
    writeFileSync(join(stage, 'bundle', `${file}.json.age`), `sealed ${file}`);
  }
  writeFileSync(join(dir, 'index.sqlite'), 'plain index');
  writeFileSync(join(dir, 'index.sqlite-wal'), 'plain wal');
  writeFileSync(join(stage, 'index.sqlite'), 'sealed index');
  writeFileSync(join(stage, 'encryption.json'), '{}');
  const steps: Step[] = [
    { move: 'encryption.json', to: 'encryption.json' },
    { remove: 'index.sqlite-wal' },
    { move: 'index.sqlite', to: 'index.sqlite' },
    { move: 'bundle/a.json.age', to: 'bundle/a.json.age' },
    { move: 'bundle/b.json.age', to: 'bundle/b.json.age' },
    { remove: 'bundle/a.json' },
    { remove: 'bundle/b.json' },
  ];
  if (withPlan) await commitPlan(layoutOf(dir), stage, steps);
  return { dir, steps };
}

const read = (dir: string, path: string): string | undefined =>
  existsSync(join(dir, path)) ? readFileSync(join(dir, path), 'utf8') : undefined;

describe('the encrypt/decrypt switch', () => {
  it('drops a new form left without a plan: the old one stands whole', async () => {
    const { dir } = await staged('unplanned', false);
    recoverLocked(layoutOf(dir));
    expect(existsSync(layoutOf(dir).staging.encrypt)).toBe(false);
    expect(read(dir, 'bundle/a.json')).toBe('plain a');
    expect(read(dir, 'index.sqlite')).toBe('plain index');
    expect(read(dir, 'encryption.json')).toBeUndefined();
  });

  it('finishes a planned switch killed after any number of its steps', async () => {
    const { steps } = await staged('probe', true);
    for (let done = 0; done <= steps.length; done++) {
      const { dir } = await staged(`killed-after-${done}`, true);
      // What a process killed after `done` steps left behind.
      for (const step of steps.slice(0, done)) {
        if ('move' in step)
          renameSync(join(layoutOf(dir).staging.encrypt, step.move), join(dir, step.to));
        else rmSync(join(dir, step.remove), { force: true });
      }
      recoverLocked(layoutOf(dir));
      expect(existsSync(layoutOf(dir).staging.encrypt), `after ${done}`).toBe(false);
      expect(read(dir, 'bundle/a.json.age')).toBe('sealed a');
      expect(read(dir, 'bundle/b.json.age')).toBe('sealed b');
      expect(read(dir, 'bundle/a.json')).toBeUndefined();
      expect(read(dir, 'index.sqlite')).toBe('sealed index');
      expect(read(dir, 'index.sqlite-wal')).toBeUndefined();
      expect(read(dir, 'encryption.json')).toBe('{}');
    }
  });

  it('refuses a plan that names a path outside the folder', async () => {
    const dir = join(root, 'outside');
    const stage = layoutOf(dir).staging.encrypt;
    mkdirSync(stage, { recursive: true });
    writeFileSync(join(root, 'victim'), 'keep');
    await commitPlan(layoutOf(dir), stage, [{ remove: '../victim' }]);
    expect(() => {
      recoverLocked(layoutOf(dir));
    }).toThrow(/outside/);
    expect(read(root, 'victim')).toBe('keep');
  });
});
