import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAMPLE_INPUTS } from './support/bundled-samples.js';
import { msg, node } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph, chatgraphWith } from './support/run-cli.js';

// A ChatGPT conversation of a question and its answers, one after the other, as an export has it.
function conversation(id: string, title: string, turns: string[], updated: number) {
  const ids = turns.map((_, i) => `${id}-m${String(i)}`);
  const mapping: Record<string, unknown> = { root: node('root', null, ids.slice(0, 1), null) };
  turns.forEach((text, i) => {
    const me = ids[i] ?? '';
    mapping[me] = node(
      me,
      i === 0 ? 'root' : (ids[i - 1] ?? null),
      ids.slice(i + 1, i + 2),
      msg(me, i % 2 === 0 ? 'user' : 'assistant', text, 1_700_000_001 + i),
    );
  });
  return {
    id,
    conversation_id: id,
    title,
    create_time: 1_700_000_000,
    update_time: updated,
    current_node: ids.at(-1),
    mapping,
  };
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

const exportJson = (
  args: string[],
): Promise<{ code: number; report: Record<string, unknown>; stderr: string }> =>
  chatgraph('export', ...args, '--json').then((r) => ({
    code: r.code,
    stderr: r.stderr,
    report: JSON.parse(r.stdout) as Record<string, unknown>,
  }));

describe('export again after the data folder changed', () => {
  it('rewrites the note of a conversation that grew, and removes the note of one deleted', async () => {
    const root = tempDir();
    const data = join(root, 'data');
    const out = join(root, 'notes');
    const first = join(root, 'first.json');
    const later = join(root, 'later.json');
    const kept = conversation('keep-0001', 'Packing for Lisbon', ['What to pack?', 'Layers.'], 1);
    writeFileSync(
      first,
      JSON.stringify([
        kept,
        conversation('grow-0001', 'Bread at altitude', ['Why flat?', 'Less pressure.'], 1),
        conversation('gone-0001', 'Old plans', ['Cancel it?', 'Yes.'], 1),
      ]),
    );
    expect((await chatgraph('import', first, '--data-dir', data, '-q')).code).toBe(0);
    const once = await exportJson(['--format', 'markdown', '--out', out, '--data-dir', data]);
    expect(once.report).toMatchObject({ written: 3, unchanged: 0, removed: 0 });

    // A newer export: one conversation has a new question and answer, the others are as before.
    const grown = conversation(
      'grow-0001',
      'Bread at altitude',
      ['Why flat?', 'Less pressure.', 'And the oven?', 'Hotter by 10 degrees.'],
      2,
    );
    writeFileSync(later, JSON.stringify([kept, grown]));
    expect((await chatgraph('import', later, '--data-dir', data, '-q')).code).toBe(0);
    const grownNote = filesUnder(out).find((p) => p.startsWith('Bread at altitude'));
    const before = readFileSync(join(out, grownNote ?? ''), 'utf8');
    const again = await exportJson(['--format', 'markdown', '--out', out, '--data-dir', data]);
    expect(again.report).toMatchObject({ written: 1, unchanged: 2, removed: 0 });
    const after = readFileSync(join(out, grownNote ?? ''), 'utf8');
    expect(before).not.toContain('Hotter by 10 degrees.');
    expect(after).toContain('Hotter by 10 degrees.');

    // Deleted with the command: its note goes, the rest stay unwritten.
    expect((await chatgraph('delete', 'gone-0001', '--data-dir', data)).code).toBe(0);
    const third = await exportJson(['--format', 'markdown', '--out', out, '--data-dir', data]);
    expect(third.report).toMatchObject({ written: 0, unchanged: 2, removed: 1 });
    expect(filesUnder(out).some((p) => p.startsWith('Old plans'))).toBe(false);
    expect(filesUnder(out).filter((p) => p.endsWith('.md'))).toHaveLength(2);
  });
});

describe('export --from (straight from exports)', () => {
  it('writes what an import and an export of the same files write, and keeps nothing else', async () => {
    const root = tempDir();
    const scratch = join(root, 'tmp');
    mkdirSync(scratch);
    const env = { TMPDIR: scratch };
    const data = join(root, 'data');
    const viaFolder = join(root, 'via-folder');
    const direct = join(root, 'direct');
    expect((await chatgraph('import', ...SAMPLE_INPUTS, '--data-dir', data, '-q')).code).toBe(0);
    expect(
      (await chatgraph('export', '--format', 'obsidian', '--out', viaFolder, '--data-dir', data))
        .code,
    ).toBe(0);
    const straight = await chatgraphWith(
      env,
      'export',
      '--format',
      'obsidian',
      '--out',
      direct,
      '--from',
      ...SAMPLE_INPUTS,
    );
    expect(straight.code).toBe(0);
    expect(straight.stdout).toMatch(/exported 48 conversations/);
    // The same notes, byte for byte (the manifest records when it ran, so it is compared apart).
    const notes = filesUnder(viaFolder).filter((p) => p !== '.chatgraph-export.json');
    expect(notes.length).toBeGreaterThan(48);
    expect(filesUnder(direct).filter((p) => p !== '.chatgraph-export.json')).toEqual(notes);
    for (const path of notes)
      expect(readFileSync(join(direct, path)), path).toEqual(readFileSync(join(viaFolder, path)));
    // The throwaway data folder is gone; run again, nothing is written.
    expect(readdirSync(scratch)).toEqual([]);
    const again = await chatgraphWith(
      env,
      'export',
      '--format',
      'obsidian',
      '--out',
      direct,
      '--from',
      ...SAMPLE_INPUTS,
    );
    expect(again.stdout).toContain('nothing changed');
  });

  it('names what it could not read, exports the rest with exit 1, and 2 when nothing is an export', async () => {
    const root = tempDir();
    const scratch = join(root, 'tmp');
    mkdirSync(scratch);
    const env = { TMPDIR: scratch };
    const damaged = join(root, 'conversations.json');
    const good = conversation('good-0001', 'Good one', ['Hello?', 'Hi.'], 1);
    // The second record is not a conversation: its mapping is a number.
    writeFileSync(damaged, JSON.stringify([good, { id: 'bad-0001', title: 'Bad', mapping: 7 }]));
    const out = join(root, 'out');
    const partial = await chatgraphWith(
      env,
      'export',
      '--format',
      'markdown',
      '--out',
      out,
      '--from',
      damaged,
    );
    expect(partial.code).toBe(1);
    expect(partial.stderr).toContain('conversations.json');
    expect(partial.stderr).toMatch(/not written/);
    expect(partial.stdout).toContain('exported 1 conversation');
    expect(filesUnder(out).filter((p) => p.endsWith('.md'))).toHaveLength(1);
    expect(readdirSync(scratch)).toEqual([]);

    const notAnExport = join(root, 'notes.txt');
    writeFileSync(notAnExport, 'just some notes');
    const none = await chatgraphWith(
      env,
      'export',
      '--format',
      'markdown',
      '--out',
      join(root, 'none'),
      '--from',
      notAnExport,
    );
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('notes.txt');
    expect(existsSync(join(root, 'none'))).toBe(false);
    expect(readdirSync(scratch)).toEqual([]);

    const both = await chatgraph(
      'export',
      '--format',
      'markdown',
      '--out',
      out,
      '--from',
      damaged,
      '--data-dir',
      root,
    );
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('export --from reads exports, not a data folder');
  });
});
