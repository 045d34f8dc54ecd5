import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_INPUTS } from './support/bundled-samples.js';
import { pamValidate } from './support/pam-sdk.js';
import { chatgraph } from './support/run-cli.js';

const root = mkdtempSync(join(tmpdir(), 'chatgraph-exportable-'));

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

interface StoreJson {
  memories: { id: string; access?: { exportable?: boolean } }[];
  integrity: { total_memories: number };
}

function readStore(bundle: string): StoreJson {
  return JSON.parse(readFileSync(join(bundle, 'memory-store.json'), 'utf8')) as StoreJson;
}

/**
 * Marks the first memory of a bundle `access.exportable: false`, as its owner would, and adds
 * one by hand (no export brings it again) marked so too, and another left exportable.
 */
function mark(bundle: string): { marked: string; added: string; control: string } {
  const file = join(bundle, 'memory-store.json');
  const store = JSON.parse(readFileSync(file, 'utf8')) as StoreJson;
  const first = store.memories[0]!;
  first.access = { exportable: false };
  const added = { ...first, id: 'added-by-hand-not-exportable' };
  const control = { ...first, id: 'added-by-hand-exportable', access: { exportable: true } };
  store.memories.push(added, control);
  writeFileSync(file, JSON.stringify(store, null, 2));
  return { marked: first.id, added: added.id, control: control.id };
}

describe('access.exportable: false (PAM 21.1)', () => {
  it('convert leaves such a memory out of the bundle it writes, and says so', async () => {
    const out = join(root, 'out');
    const first = await chatgraph('convert', ...SAMPLE_INPUTS, '-o', out, '-q');
    expect(first.code, first.stderr).toBe(0);
    const before = readStore(out).memories.length;
    expect(before).toBeGreaterThan(1);
    const { marked, added, control } = mark(out);
    const again = await chatgraph('convert', ...SAMPLE_INPUTS, '-o', out, '-q', '--json');
    expect(again.code, again.stderr).toBe(0);
    const after = readStore(out);
    const ids = after.memories.map((m) => m.id);
    expect(ids).not.toContain(marked);
    expect(ids).not.toContain(added);
    expect(ids).toContain(control);
    expect(after.memories).toHaveLength(before);
    expect(after.integrity.total_memories).toBe(before);
    expect(again.stdout).toContain('memory-not-exportable');
    const { status, output } = pamValidate(out);
    expect(output).toMatch(/\b0 invalid\b/);
    expect(status).toBe(0);
  });

  it("the data folder's bundle, the record, keeps it through an import", async () => {
    const data = join(root, 'data');
    const first = await chatgraph('import', ...SAMPLE_INPUTS, '--data-dir', data, '-q');
    expect(first.code, first.stderr).toBe(0);
    const bundle = join(data, 'bundle');
    const { marked, added } = mark(bundle);
    const again = await chatgraph('import', ...SAMPLE_INPUTS, '--data-dir', data, '-q', '--force');
    expect(again.code, again.stderr).toBe(0);
    const memories = readStore(bundle).memories;
    // The platform's memory read again keeps the access its owner set.
    expect(memories.find((m) => m.id === marked)?.access?.exportable).toBe(false);
    expect(memories.find((m) => m.id === added)?.access?.exportable).toBe(false);
    const { status, output } = pamValidate(bundle);
    expect(output).toMatch(/\b0 invalid\b/);
    expect(status).toBe(0);
  });
});
