import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/convert-to-temp.js';
import { ModelNotInstalledError } from './embed-errors.js';
import { MANIFEST_FILE } from './model-folder.js';
import { STAMP_FILE } from './model-stamp.js';
import { resolveLocalModel } from './open-embedder.js';

const sha256 = (bytes: string): string => createHash('sha256').update(bytes).digest('hex');

/** A model folder as `model fetch` leaves it (small stand-in files; nothing loads them here). */
function fetchedFolder(): string {
  const folder = join(tempDir(), 'tiny-model');
  mkdirSync(folder, { recursive: true });
  const files = { 'model.onnx': 'weights '.repeat(1000), 'tokenizer.json': '{"model":{}}' };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  writeFileSync(
    join(folder, MANIFEST_FILE),
    JSON.stringify({
      id: 'tiny',
      dimensions: 4,
      maxTokens: 16,
      source: 'test',
      files: Object.entries(files).map(([name, text]) => ({
        name,
        sha256: sha256(text),
        size: text.length,
      })),
      fetchedAt: '2026-12-06T00:00:00Z',
    }),
  );
  return folder;
}

describe('a model’s files, hashed once and then known by their stamp (issue 46)', () => {
  it('stamps the files its first open hashed, and trusts the stamp while each file is the one hashed', async () => {
    const folder = fetchedFolder();
    await resolveLocalModel({ model: folder });
    expect(existsSync(join(folder, STAMP_FILE))).toBe(true);
    // The stamp, not the bytes, is what a later open reads: a file changed under a stamp that
    // still matches its identity would pass. Made so here on purpose, by restamping the
    // manifest's hash: no write to model.onnx, so its identity is the one stamped.
    const manifest = readFileSync(join(folder, MANIFEST_FILE), 'utf8');
    const stamp = readFileSync(join(folder, STAMP_FILE), 'utf8');
    const real = sha256('weights '.repeat(1000));
    const claimed = sha256('other weights');
    writeFileSync(join(folder, MANIFEST_FILE), manifest.replace(real, claimed));
    writeFileSync(join(folder, STAMP_FILE), stamp.replace(real, claimed));
    await expect(resolveLocalModel({ model: folder })).resolves.toMatchObject({ folder });
  });

  it('hashes a stamped file again once it was written, even back to its size and mtime', async () => {
    const folder = fetchedFolder();
    await resolveLocalModel({ model: folder });
    const onnx = join(folder, 'model.onnx');
    // A whole second for mtime, which utimes can set back exactly (it takes no nanoseconds).
    const stamped = new Date('2026-01-01T00:00:00Z');
    utimesSync(onnx, stamped, stamped);
    await resolveLocalModel({ model: folder });
    const before = statSync(onnx, { bigint: true });
    // Past the file system's clock tick (a few ms), so the write's ctime is a later one.
    await new Promise((resolve) => setTimeout(resolve, 30));
    // The same length, other bytes, written in place (same inode), its mtime set back: only
    // its ctime tells, and nothing can set that back.
    writeFileSync(onnx, 'WEIGHTS '.repeat(1000));
    utimesSync(onnx, stamped, stamped);
    const after = statSync(onnx, { bigint: true });
    expect([after.size, after.mtimeNs, after.ino]).toEqual([
      before.size,
      before.mtimeNs,
      before.ino,
    ]);
    expect(after.ctimeNs).not.toBe(before.ctimeNs);
    await expect(resolveLocalModel({ model: folder })).rejects.toThrow(ModelNotInstalledError);
    await expect(resolveLocalModel({ model: folder })).rejects.toThrow(/model tiny is damaged/);
  });

  it('hashes every time in a folder it cannot write a stamp into', async () => {
    const folder = fetchedFolder();
    // A folder named as the stamp: the stamp cannot be written, the open still succeeds.
    mkdirSync(join(folder, STAMP_FILE));
    await expect(resolveLocalModel({ model: folder })).resolves.toMatchObject({ folder });
    writeFileSync(join(folder, 'tokenizer.json'), '{"model":{"x":1}}');
    await expect(resolveLocalModel({ model: folder })).rejects.toThrow(/model tiny is damaged/);
  });
});
