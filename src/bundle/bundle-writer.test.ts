import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/convert-to-temp.js';
import { BundleWriter } from './bundle-writer.js';
import { MemoryStoreError } from './read-memory-store.js';
import { bundleAt } from '../../test/support/bundle-at.js';

describe('BundleWriter.open', () => {
  it('removes temporaries left by a killed process, and keeps those of live ones', async () => {
    const dir = tempDir();
    const conversations = join(dir, 'conversations');
    mkdirSync(conversations, { recursive: true });
    // No process has pid 4194304 or more on Linux (pid_max is at most 2^22).
    const stale = join(conversations, 'abc.json.4194305-7.tmp');
    const live = join(conversations, `def.json.${process.pid}-1.tmp`);
    writeFileSync(stale, '{');
    writeFileSync(live, '{');
    await BundleWriter.open(bundleAt(dir));
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(live)).toBe(true);
  });

  it('refuses a memory-store.json of the wrong shape with an error naming the file and field', async () => {
    const dir = tempDir();
    const file = join(dir, 'memory-store.json');
    // Well-formed JSON, wrong shape: once a crash ("conversations_index is not iterable").
    writeFileSync(
      file,
      JSON.stringify({
        owner: { id: 'o', created_at: '2026-01-01T00:00:00Z' },
        memories: [],
        conversations_index: {},
      }),
    );
    const opened = BundleWriter.open(bundleAt(dir));
    await expect(opened).rejects.toThrow(MemoryStoreError);
    await expect(opened).rejects.toThrow(`${file} is not a PAM memory store (conversations_index:`);
  });
});

describe('BundleWriter.writeText', () => {
  it('writes inline text once, leaves the same text alone, and sweeps stale temporaries', async () => {
    const dir = tempDir();
    const ref = 'attachments/text/c1/1-notes.txt';
    const folder = join(dir, 'attachments', 'text', 'c1');
    mkdirSync(folder, { recursive: true });
    const stale = join(folder, '1-notes.txt.4194305-3.tmp');
    writeFileSync(stale, 'half');
    const writer = await BundleWriter.open(bundleAt(dir));
    expect(await writer.writeText(ref, 'pasted')).toBe(true);
    expect(readFileSync(join(dir, ref), 'utf8')).toBe('pasted');
    expect(existsSync(stale)).toBe(false);
    expect(await writer.writeText(ref, 'pasted')).toBe(false);
    expect(await writer.writeText(ref, 'edited')).toBe(true);
    expect(readFileSync(join(dir, ref), 'utf8')).toBe('edited');
    await expect(writer.writeText('attachments/text/../../x.txt', 'no')).rejects.toThrow(
      /not an inline text ref/,
    );
  });
});
