import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZipWriter } from '../sample/zip-writer.js';
import { tempDir } from '../../test/support/convert-to-temp.js';
import { openZip } from './zip.js';
import { readRecords } from './read-records.js';
import type { Entry } from './entry.js';

async function text(entry: Entry | undefined): Promise<string> {
  if (!entry) throw new Error('no entry');
  const chunks: Buffer[] = [];
  for await (const chunk of (await entry.open()) as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function makeZip(
  files: [string, string | Buffer][],
  options: { withoutCentralDirectory?: boolean } = {},
): Promise<string> {
  const path = join(tempDir(), 'test.zip');
  const zip = new ZipWriter(path);
  for (const [name, data] of files) await zip.add(name, data);
  await zip.close(options);
  return path;
}

describe('openZip', () => {
  it('lists entries from the central directory and inflates them lazily', async () => {
    const path = await makeZip([
      ['conversations.json', '[{"a":1}]'],
      ['dir/user.json', '{"id":"u"}'],
    ]);
    const { entries, problems } = await openZip(path, 'test.zip');
    expect(problems).toEqual([]);
    expect(entries.map((e) => [e.path, e.size, e.displayPath])).toEqual([
      ['conversations.json', 9, 'test.zip!conversations.json'],
      ['dir/user.json', 10, 'test.zip!dir/user.json'],
    ]);
    expect(await text(entries[1])).toBe('{"id":"u"}');
    expect(await text(entries[0])).toBe('[{"a":1}]');
  });

  it('reads entry by entry from local headers when the central directory is missing', async () => {
    const path = await makeZip(
      [
        ['a.json', 'x'.repeat(5000)],
        ['b.json', '[1,2,3]'],
      ],
      { withoutCentralDirectory: true },
    );
    const { entries, problems } = await openZip(path, 'cut.zip');
    expect(problems.map((p) => p.code)).toEqual(['zip-central-directory-damaged']);
    expect(entries.map((e) => e.path)).toEqual(['a.json', 'b.json']);
    expect(await text(entries[0])).toBe('x'.repeat(5000));
    expect(await text(entries[1])).toBe('[1,2,3]');
  });

  it('refuses entries whose path would escape the output folder', async () => {
    const path = await makeZip([
      ['../evil.json', '[]'],
      ['/abs.json', '[]'],
      ['ok.json', '[]'],
    ]);
    const { entries, problems } = await openZip(path, 'evil.zip');
    expect(entries.map((e) => e.path)).toEqual(['ok.json']);
    expect(problems.filter((p) => p.code === 'zip-unsafe-path')).toHaveLength(2);
  });

  it('refuses an entry that inflates past its declared size', async () => {
    const path = await makeZip([['big.json', 'a'.repeat(100_000)]]);
    // Make the central directory lie about the size, as a crafted archive would.
    const bytes = readFileSync(path);
    const cd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(10, cd + 24);
    writeFileSync(path, bytes);
    const { entries } = await openZip(path, 'liar.zip');
    await expect(text(entries[0])).rejects.toThrow(/declared size/);
  });

  it('refuses an entry that inflates past a sane ratio (a zip bomb)', async () => {
    const path = join(tempDir(), 'bomb.zip');
    const zip = new ZipWriter(path);
    function* zeros(): Generator<Buffer> {
      const block = Buffer.alloc(1 << 20);
      for (let i = 0; i < 80; i++) yield block;
    }
    await zip.add('conversations.json', zeros());
    await zip.close();
    const bytes = readFileSync(path);
    // Declared as 4 GB, so only the ratio check can stop it.
    const cd = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE(0xfffffff0, cd + 24);
    writeFileSync(path, bytes);
    const { entries } = await openZip(path, 'bomb.zip');
    await expect(text(entries[0])).rejects.toThrow(/zip bomb/);
  });

  it('checks each entry against its CRC-32: a mismatch fails that entry only', async () => {
    const path = await makeZip([
      ['conversations.json', '[{"a":1}]'],
      ['user.json', '{"id":"u"}'],
    ]);
    // Damage the first entry's recorded CRC-32, as a bad download or disk would its bytes.
    const bytes = readFileSync(path);
    const cd = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE((bytes.readUInt32LE(cd + 16) ^ 0xff) >>> 0, cd + 16);
    writeFileSync(path, bytes);
    const { entries, problems } = await openZip(path, 'damaged.zip');
    expect(problems).toEqual([]);
    await expect(text(entries[0])).rejects.toThrow(
      /zip entry "conversations.json" is damaged: its bytes have CRC-32 [0-9a-f]{8}, the zip records [0-9a-f]{8}/,
    );
    expect(await text(entries[1])).toBe('{"id":"u"}');
  });

  it('reports a CRC-32 mismatch of a conversations file as a problem, keeping its records', async () => {
    const good = JSON.stringify([{ uuid: 'ok', name: 'fine', chat_messages: [] }]);
    const path = await makeZip([['conversations.json', good]]);
    const bytes = readFileSync(path);
    const cd = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE((bytes.readUInt32LE(cd + 16) ^ 1) >>> 0, cd + 16);
    writeFileSync(path, bytes);
    const { entries } = await openZip(path, 'damaged.zip');
    const entry = entries[0];
    if (!entry) throw new Error('no entry');
    const items = [];
    for await (const item of readRecords(entry, { kind: 'json' })) items.push(item);
    expect(items.map((i) => i.kind)).toEqual(['record', 'problem']);
    const problem = items[1];
    expect(problem?.kind === 'problem' && problem.code).toBe('zip-crc-mismatch');
    expect(problem?.kind === 'problem' && problem.message).toMatch(
      /"conversations.json" is damaged.*read all the same/,
    );
  });
});
