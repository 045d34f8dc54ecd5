import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ZipWriter } from '../src/sample/zip-writer.js';
import { tempDir } from './support/convert-to-temp.js';
import { CLI, chatgraph } from './support/run-cli.js';

describe('chatgraph convert on what is not an export', () => {
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('build first: npm run build');
  });

  const cases: [string, (dir: string) => Promise<string>][] = [
    [
      'an image',
      (dir) => {
        const path = join(dir, 'photo.png');
        writeFileSync(path, Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'));
        return Promise.resolve(path);
      },
    ],
    [
      'a random JSON file',
      (dir) => {
        const path = join(dir, 'data.json');
        writeFileSync(path, JSON.stringify({ hello: 'world', items: [1, 2, 3] }));
        return Promise.resolve(path);
      },
    ],
    [
      'an empty zip',
      async (dir) => {
        const path = join(dir, 'empty.zip');
        const zip = new ZipWriter(path);
        await zip.close();
        return path;
      },
    ],
    ['a path that does not exist', (dir) => Promise.resolve(join(dir, 'nope.zip'))],
  ];

  it.each(cases)('%s: one clear sentence, exit code 2, nothing written', async (_name, make) => {
    const dir = tempDir();
    const input = await make(dir);
    const out = join(dir, 'bundle');
    const { code, stderr, stdout } = await chatgraph('convert', input, '--out', out);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /^chatgraph: .*(not a chat export: expected an export of ChatGPT, Claude\.ai|does not exist)/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('reads a zip that has no .zip extension', async () => {
    const dir = tempDir();
    const path = join(dir, 'claude-export-download');
    const zip = new ZipWriter(path);
    await zip.add(
      'conversations.json',
      JSON.stringify([
        {
          uuid: 'c',
          name: 'x',
          created_at: '2025-01-01T00:00:00Z',
          chat_messages: [
            { uuid: 'm', sender: 'human', text: 'hi', created_at: '2025-01-01T00:00:00Z' },
          ],
        },
      ]),
    );
    await zip.close();
    const { code, stdout } = await chatgraph('convert', path, '--out', join(dir, 'b'), '--json');
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { totals: { conversations: number } };
    expect(report.totals.conversations).toBe(1);
  });
});

describe('chatgraph convert into a bundle whose memory-store.json has another shape', () => {
  it('says so in one line naming the file, exit 2, and leaves the file as it was', async () => {
    const dir = tempDir();
    const out = join(dir, 'bundle');
    mkdirSync(out);
    const file = join(out, 'memory-store.json');
    const text = JSON.stringify({
      owner: { id: 'o', created_at: '2026-01-01T00:00:00Z' },
      memories: [],
      conversations_index: 'all',
    });
    writeFileSync(file, text);
    const sample = join(import.meta.dirname, '..', 'samples', 'claude-code');
    const { code, stderr } = await chatgraph('convert', sample, '--out', out, '-q');
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain(`${file} is not a PAM memory store (conversations_index`);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});
