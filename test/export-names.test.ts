import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { branchedConversation, msg, node } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph } from './support/run-cli.js';

// Issue 41, points 6 and 16: what an export names its files. With --redact, a secret in a
// title is masked in the file names, links, the HTML search index and the manifest too, not
// only in the title shown; and a title that is a name Windows reserves (nul.txt, COM1.md,
// "aux .txt") gives a name Windows takes, which a later export to the folder accepts.

const KEY = 'sk-proj-Qz7Kd81nVwXcYt5RbHs2LmPa9JfUe3Go';

let data: string;
beforeAll(async () => {
  const dir = tempDir();
  const input = join(dir, 'conversations.json');
  const titled = (id: string, title: string): Record<string, unknown> => ({
    ...branchedConversation(id, title),
    conversation_id: id,
  });
  writeFileSync(
    input,
    JSON.stringify([
      titled('secret-title', `Deploy with ${KEY}`),
      titled('reserved-nul', 'nul.txt'),
      titled('reserved-com', 'COM1.md'),
      titled('reserved-aux', 'aux .txt'),
      titled('reserved-lpt', 'LPT9'),
    ]),
  );
  data = join(dir, 'data');
  const imported = await chatgraph('import', input, '--data-dir', data, '-q');
  expect(imported.code, imported.stderr).toBe(0);
}, 120_000);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

// Windows reads a name up to its first dot, trailing spaces and dots dropped, as the device.
function reservedOnWindows(part: string): boolean {
  const head = (part.split('.')[0] ?? part).replace(/[ .]+$/, '');
  return /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i.test(head);
}

describe('export --redact masks a title’s secret everywhere it is named (issue 41, point 6)', () => {
  for (const format of ['markdown', 'obsidian', 'html']) {
    it(`${format}: in no file name, link, index or manifest`, async () => {
      const out = join(tempDir(), format);
      const run = await chatgraph(
        'export',
        '--format',
        format,
        '--out',
        out,
        '--redact',
        '--data-dir',
        data,
      );
      expect(run.code, run.stderr).toBe(0);
      const files = filesUnder(out);
      expect(files.some((f) => f.includes('Deploy with'))).toBe(true);
      expect(files.filter((f) => f.includes('Qz7Kd81n'))).toEqual([]);
      const holding = files.filter((f) =>
        readFileSync(join(out, f), 'latin1').includes('Qz7Kd81n'),
      );
      expect(holding).toEqual([]);
    });
  }
});

describe('export names no file as Windows reserves (issue 41, point 16)', () => {
  for (const format of ['markdown', 'obsidian', 'html']) {
    it(`${format}: every name is one Windows takes, and a second export accepts the folder`, async () => {
      const out = join(tempDir(), format);
      const first = await chatgraph('export', '--format', format, '--out', out, '--data-dir', data);
      expect(first.code, first.stderr).toBe(0);
      const parts = filesUnder(out).flatMap((f) => f.split('/'));
      expect(parts.filter(reservedOnWindows)).toEqual([]);
      expect(parts.some((p) => p.toLowerCase().startsWith('nul'))).toBe(true);
      const again = await chatgraph('export', '--format', format, '--out', out, '--data-dir', data);
      expect(again.code, again.stderr).toBe(0);
    });
  }

  it('a manifest an older version wrote with such a name does not refuse the folder', async () => {
    const out = join(tempDir(), 'markdown');
    expect(
      (await chatgraph('export', '--format', 'markdown', '--out', out, '--data-dir', data)).code,
    ).toBe(0);
    const manifest = join(out, '.chatgraph-export.json');
    const value = JSON.parse(readFileSync(manifest, 'utf8')) as { files: Record<string, unknown> };
    value.files['nul.txt_ (6d1b2c3e).md'] = { hash: '0'.repeat(64), size: 1, mtimeMs: 1 };
    writeFileSync(manifest, JSON.stringify(value));
    const again = await chatgraph(
      'export',
      '--format',
      'markdown',
      '--out',
      out,
      '--data-dir',
      data,
    );
    expect(again.code, again.stderr).toBe(0);
  });
});

describe('--redact masks a Basic header and a key inside a JSON string (issue 41, point 8)', () => {
  const encoded = Buffer.from('jörg:pässwort1', 'latin1').toString('base64');
  const line = 'MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu';
  const pasted = [
    `curl -H "Authorization: Basic ${encoded}" https://api.example.com`,
    `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n${line}\\n`,
  ].join('\n');

  it('in the bundle of an import --redact, and in every file of an export --redact', async () => {
    const dir = tempDir();
    const input = join(dir, 'conversations.json');
    const id = 'pasted-secrets';
    writeFileSync(
      input,
      JSON.stringify([
        {
          id,
          conversation_id: id,
          title: 'Why does this call fail',
          create_time: 1_700_000_000,
          update_time: 1_700_000_100,
          current_node: 'a',
          mapping: {
            root: node('root', null, ['u'], null),
            u: node('u', 'root', ['a'], msg('u', 'user', pasted, 1_700_000_001)),
            a: node('a', 'u', [], msg('a', 'assistant', 'Rotate those.', 1_700_000_002)),
          },
        },
      ]),
    );
    const redacted = join(dir, 'redacted');
    expect((await chatgraph('import', input, '--redact', '--data-dir', redacted, '-q')).code).toBe(
      0,
    );
    const plain = join(dir, 'plain');
    expect((await chatgraph('import', input, '--data-dir', plain, '-q')).code).toBe(0);
    const found = (root: string): string[] =>
      filesUnder(root).filter((f) => {
        const text = readFileSync(join(root, f), 'latin1');
        return text.includes(encoded.slice(0, 12)) || text.includes(line.slice(0, 12));
      });
    expect(found(join(redacted, 'bundle'))).toEqual([]);
    // The plain folder holds them: the check above could have failed.
    expect(found(join(plain, 'bundle')).length).toBeGreaterThan(0);
    for (const format of ['markdown', 'html', 'jsonl']) {
      const out = join(dir, `out-${format}`);
      const run = await chatgraph(
        'export',
        '--format',
        format,
        '--out',
        out,
        '--redact',
        '--data-dir',
        plain,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(found(out)).toEqual([]);
    }
  });
});
