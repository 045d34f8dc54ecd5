// The zip reader on archives other tools wrote, not only our own ZipWriter: Python's zipfile
// (zip64 records, data descriptors from a stream), Info-ZIP's zip (deflated, streamed with
// forced zip64), and a macOS-style archive (`__MACOSX/._*` AppleDouble members, UTF-8 names).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/convert-to-temp.js';
import { chatgraph } from '../../test/support/run-cli.js';
import type { Entry } from './entry.js';
import { openZip } from './zip.js';

async function bytesOf(entry: Entry | undefined): Promise<Buffer> {
  if (!entry) throw new Error('no entry');
  const chunks: Buffer[] = [];
  for await (const chunk of (await entry.open()) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Runs a Python script with `argv[1]` = the archive to write. */
function python(script: string, path: string): string {
  execFileSync('python3', ['-c', script, path], { stdio: ['ignore', 'ignore', 'inherit'] });
  return path;
}

const PAYLOAD = JSON.stringify({ note: 'prix du pain à Genève', repeat: 'abc'.repeat(2000) });

describe('openZip on archives written by other tools', () => {
  it("reads Python's zip64 archive (more members than the classic end record counts)", async () => {
    // Over 65,535 members: zipfile writes the zip64 end record and its locator.
    const path = python(
      `import sys, zipfile
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('conversations.json', ${JSON.stringify(PAYLOAD)})
    for i in range(66000): z.writestr(f'files/{i}.txt', str(i))`,
      join(tempDir(), 'python-zip64.zip'),
    );
    const bytes = readFileSync(path);
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    const { entries, problems } = await openZip(path, 'python-zip64.zip');
    expect(problems).toEqual([]);
    expect(entries).toHaveLength(66001);
    expect((await bytesOf(entries[0])).toString('utf8')).toBe(PAYLOAD);
    expect((await bytesOf(entries[65999])).toString('utf8')).toBe('65998');
  });

  it("reads Python's zip64 local headers (force_zip64) written to a stream, with data descriptors", async () => {
    // Written to a pipe, zipfile cannot seek back: sizes follow the data (flag bit 3).
    const path = join(tempDir(), 'python-stream.zip');
    const zipped = execFileSync('python3', [
      '-c',
      `import sys, zipfile
with zipfile.ZipFile(sys.stdout.buffer, 'w', zipfile.ZIP_DEFLATED) as z:
    with z.open('conversations.json', 'w', force_zip64=True) as f: f.write(${JSON.stringify(PAYLOAD)}.encode())
    with z.open('user.json', 'w') as f: f.write(b'{"id":"u"}')`,
    ]);
    writeFileSync(path, zipped);
    expect(zipped.readUInt16LE(6) & 0x08).toBe(0x08);
    const { entries, problems } = await openZip(path, 'python-stream.zip');
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.path, e.size])).toEqual([
      ['conversations.json', Buffer.byteLength(PAYLOAD)],
      ['user.json', 10],
    ]);
    expect((await bytesOf(entries[0])).toString('utf8')).toBe(PAYLOAD);
    expect((await bytesOf(entries[1])).toString('utf8')).toBe('{"id":"u"}');
  });

  it("reads Info-ZIP zip's archives: a deflated folder, and one streamed to a pipe with -fz", async () => {
    const dir = tempDir();
    const source = join(dir, 'export');
    mkdirSync(join(source, 'dalle'), { recursive: true });
    writeFileSync(join(source, 'conversations.json'), PAYLOAD);
    writeFileSync(join(source, 'dalle', 'image.webp'), Buffer.alloc(5000, 7));
    const folder = join(dir, 'info-zip.zip');
    execFileSync('zip', ['-q', '-r', folder, '.'], { cwd: source });
    // `zip -fz -` to a pipe: zip64 extra fields, data descriptors, and an end record whose
    // directory offset says "see the zip64 record" although none is written (unzip copes too).
    const streamed = execFileSync('zip', ['-q', '-fz', '-r', '-', '.'], { cwd: source });
    writeFileSync(join(dir, 'streamed.zip'), streamed);
    for (const name of ['info-zip.zip', 'streamed.zip']) {
      const { entries, problems } = await openZip(join(dir, name), name);
      expect(problems).toEqual([]);
      const files = entries.filter((e) => !e.path.endsWith('/'));
      const byPath = new Map(files.map((e) => [e.path, e]));
      expect([...byPath.keys()].sort()).toEqual(['conversations.json', 'dalle/image.webp']);
      expect((await bytesOf(byPath.get('conversations.json'))).toString('utf8')).toBe(PAYLOAD);
      expect(await bytesOf(byPath.get('dalle/image.webp'))).toEqual(Buffer.alloc(5000, 7));
    }
  });

  it('imports a macOS-style archive: AppleDouble members beside the export are not read as it', async () => {
    const fixture = readFileSync(
      join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'chatgpt', 'kitchen-forks.json'),
    );
    // Finder's "Compress" adds `__MACOSX/._<name>` resource forks and a top folder; names are
    // UTF-8 (flag bit 11), here one with an accent.
    const path = python(
      `import sys, zipfile
fixture = open(${JSON.stringify(join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'chatgpt', 'kitchen-forks.json'))}, 'rb').read()
fork = b'\\x00\\x05\\x16\\x07\\x00\\x02\\x00\\x00' + b'Mac OS X        ' + b'\\x00' * 40
with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
    z.writestr('Exportación/conversations.json', fixture)
    z.writestr('__MACOSX/Exportación/._conversations.json', fork)
    z.writestr('Exportación/.DS_Store', b'\\x00\\x00\\x00\\x01Bud1' + b'\\x00' * 60)`,
      join(tempDir(), 'macos.zip'),
    );
    expect(fixture.length).toBeGreaterThan(0);
    const { entries } = await openZip(path, 'macos.zip');
    expect(entries.map((e) => e.path)).toContain('Exportación/conversations.json');
    const out = join(tempDir(), 'bundle');
    const { code, stderr } = await chatgraph('convert', path, '--out', out, '-q');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const store = JSON.parse(readFileSync(join(out, 'memory-store.json'), 'utf8')) as {
      conversations_index: unknown[];
    };
    expect(store.conversations_index.length).toBeGreaterThan(0);
  });
});
