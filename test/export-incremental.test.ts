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
  // A scratch temporary directory for the CLI, so what it leaves there can be seen.
  function scratchOf(root: string): { dir: string; from: typeof chatgraph } {
    const dir = join(root, 'tmp');
    mkdirSync(dir);
    return {
      dir,
      from: (...args: string[]) => chatgraphWith({ TMPDIR: dir }, 'export', ...args),
    };
  }

  it('writes what an import and an export of the same files write, and keeps nothing else', async () => {
    const root = tempDir();
    const scratch = scratchOf(root);
    const data = join(root, 'data');
    const viaFolder = join(root, 'via-folder');
    const direct = join(root, 'direct');
    expect((await chatgraph('import', ...SAMPLE_INPUTS, '--data-dir', data, '-q')).code).toBe(0);
    expect(
      (await chatgraph('export', '--format', 'obsidian', '--out', viaFolder, '--data-dir', data))
        .code,
    ).toBe(0);
    const straight = await scratch.from(
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
    expect(readdirSync(scratch.dir)).toEqual([]);
    const again = await scratch.from(
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
    const scratch = scratchOf(root);
    const damaged = join(root, 'conversations.json');
    const good = conversation('good-0001', 'Good one', ['Hello?', 'Hi.'], 1);
    // The second record is not a conversation: its mapping is a number.
    writeFileSync(damaged, JSON.stringify([good, { id: 'bad-0001', title: 'Bad', mapping: 7 }]));
    const out = join(root, 'out');
    const partial = await scratch.from('--format', 'markdown', '--out', out, '--from', damaged);
    expect(partial.code).toBe(1);
    expect(partial.stderr).toContain('conversations.json');
    expect(partial.stderr).toMatch(/not written/);
    expect(partial.stdout).toContain('exported 1 conversation');
    expect(filesUnder(out).filter((p) => p.endsWith('.md'))).toHaveLength(1);
    expect(readdirSync(scratch.dir)).toEqual([]);

    const notAnExport = join(root, 'notes.txt');
    writeFileSync(notAnExport, 'just some notes');
    const none = await scratch.from(
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
    expect(readdirSync(scratch.dir)).toEqual([]);

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

describe('export keeps to its folder and to --redact', () => {
  const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKl';
  // A Claude.ai conversation with a pasted config file holding a key, and the samples (whose
  // ChatGPT uploads include images: files that are not text).
  async function folderWithSecrets(root: string): Promise<string> {
    const claude = join(root, 'claude');
    mkdirSync(claude);
    const at = '2025-02-01T10:00:00.000Z';
    const turn = (uuid: string, sender: string, text: string, attachments: unknown[] = []) => ({
      uuid,
      text,
      content: [{ type: 'text', text }],
      sender,
      created_at: at,
      updated_at: at,
      attachments,
      files: [],
    });
    writeFileSync(
      join(claude, 'conversations.json'),
      JSON.stringify([
        {
          uuid: 'eeeeeeee-0000-4000-8000-000000000001',
          name: 'Config trouble',
          created_at: at,
          updated_at: at,
          account: { uuid: 'cccccccc-0000-4000-8000-000000000001' },
          chat_messages: [
            turn('dddddddd-0000-4000-8000-000000000000', 'human', 'Why does my config fail?', [
              {
                file_name: 'config.env',
                file_type: 'text/plain',
                file_size: 80,
                extracted_content: `OPENAI_API_KEY=${key}\nDEBUG=1\n`,
              },
            ]),
            turn('dddddddd-0000-4000-8000-000000000001', 'assistant', 'The key line looks fine.'),
          ],
        },
      ]),
    );
    const data = join(root, 'data');
    const imported = await chatgraph('import', claude, ...SAMPLE_INPUTS, '--data-dir', data, '-q');
    expect(imported.code).toBe(0);
    return data;
  }

  const allText = (dir: string): string =>
    filesUnder(dir)
      .map((p) => readFileSync(join(dir, p)).toString('latin1'))
      .join('\n');

  it('masks a secret in the attachment files it copies, and leaves out files it cannot mask', async () => {
    const root = tempDir();
    const data = await folderWithSecrets(root);
    for (const format of ['markdown', 'html'] as const) {
      const plain = join(root, `plain-${format}`);
      expect(
        (await chatgraph('export', '--format', format, '--out', plain, '--data-dir', data)).code,
      ).toBe(0);
      // Without --redact the file is copied as it is, key and all: the test can tell.
      expect(allText(plain)).toContain(key);
      const images = filesUnder(plain).filter((p) => /\.(png|jpe?g|webp|gif)$/i.test(p));
      expect(images.length).toBeGreaterThan(0);

      const masked = join(root, `masked-${format}`);
      const run = await exportJson([
        '--format',
        format,
        '--out',
        masked,
        '--data-dir',
        data,
        '--redact',
      ]);
      expect(run.code).toBe(0);
      expect(allText(masked)).not.toContain(key);
      const config = filesUnder(masked).find((p) => p.endsWith('config.env'));
      expect(config, 'the masked config file is still there').toBeDefined();
      expect(readFileSync(join(masked, config ?? ''), 'utf8')).toContain('[REDACTED:');
      expect(filesUnder(masked).filter((p) => /\.(png|jpe?g|webp|gif)$/i.test(p))).toEqual([]);
      expect(run.report.withheld).toBe(images.length);
    }
  });

  it('refuses a manifest that names files outside its folder, and deletes nothing', async () => {
    const root = tempDir();
    const data = await folderWithSecrets(root);
    const out = join(root, 'out');
    mkdirSync(out);
    const victim = join(root, 'victim.txt');
    writeFileSync(victim, 'mine');
    writeFileSync(
      join(out, '.chatgraph-export.json'),
      JSON.stringify({
        schema: 'chatgraph-export',
        version: 1,
        format: 'markdown',
        files: { '../victim.txt': { hash: '00', size: 1, mtimeMs: 1 } },
      }),
    );
    const run = await chatgraph(
      'export',
      '--format',
      'markdown',
      '--out',
      out,
      '--force',
      '--data-dir',
      data,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('names "../victim.txt", not a file an export writes');
    expect(readFileSync(victim, 'utf8')).toBe('mine');
  });

  it('copies no file an attachment ref points to outside the bundle', async () => {
    const root = tempDir();
    const data = await folderWithSecrets(root);
    const outside = join(root, 'outside-secret.txt');
    writeFileSync(outside, 'a file of mine the bundle must not reach');
    // A bundle edited by hand (or written by another tool): one ref climbs out of it.
    const conversations = join(data, 'bundle', 'conversations');
    let edited = 0;
    for (const name of readdirSync(conversations)) {
      const file = join(conversations, name);
      const text = readFileSync(file, 'utf8');
      if (!text.includes('"ref": "attachments/') && !text.includes('"ref":"attachments/')) continue;
      writeFileSync(
        file,
        text.replace(/"ref": ?"attachments\/[^"]+"/, `"ref": "../../outside-secret.txt"`),
      );
      edited++;
      break;
    }
    expect(edited).toBe(1);
    expect((await chatgraph('reindex', '--data-dir', data)).code).toBe(0);
    const out = join(root, 'out');
    expect(
      (await chatgraph('export', '--format', 'markdown', '--out', out, '--data-dir', data)).code,
    ).toBe(0);
    expect(allText(out)).not.toContain('a file of mine the bundle must not reach');
  });

  it('goes on from an export killed before it saved its manifest, with nothing called edited', async () => {
    const root = tempDir();
    const data = await folderWithSecrets(root);
    const vault = join(root, 'vault');
    const manifest = join(vault, '.chatgraph-export.json');
    expect(
      (await chatgraph('export', '--format', 'obsidian', '--out', vault, '--data-dir', data)).code,
    ).toBe(0);
    const saved = readFileSync(manifest);
    expect(
      (
        await chatgraph(
          'remember',
          'Keeps configs in .env files',
          '--type',
          'preference',
          '--data-dir',
          data,
        )
      ).code,
    ).toBe(0);
    expect(
      (await chatgraph('export', '--format', 'obsidian', '--out', vault, '--data-dir', data)).code,
    ).toBe(0);
    // As if that second export had been killed after writing Memories.md, before its manifest.
    writeFileSync(manifest, saved);
    const again = await exportJson(['--format', 'obsidian', '--out', vault, '--data-dir', data]);
    expect(again.code).toBe(0);
    expect(again.report).toMatchObject({ kept: [], written: 0 });
  });
});
