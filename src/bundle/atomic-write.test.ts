import { mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/convert-to-temp.js';
import { writeFileAtomic, writeFileAtomicSync } from './atomic-write.js';

describe('atomic writes', () => {
  it.each([true, false])(
    'write and replace a file, leaving no temporary (durable %s)',
    async (durable) => {
      const dir = join(tempDir(), 'nested');
      await writeFileAtomic(join(dir, 'a.json'), 'first', { durable });
      await writeFileAtomic(join(dir, 'a.json'), 'second', { durable });
      writeFileAtomicSync(join(dir, 'b.json'), 'sync', { durable });
      expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('second');
      expect(readFileSync(join(dir, 'b.json'), 'utf8')).toBe('sync');
      expect(readdirSync(dir).sort()).toEqual(['a.json', 'b.json']);
    },
  );

  it('leaves the old file and no temporary when the write fails', async () => {
    const dir = tempDir();
    await writeFileAtomic(join(dir, 'a.json'), 'kept');
    // A folder where the file should go: the rename fails after the temporary was flushed.
    mkdirSync(join(dir, 'taken'));
    mkdirSync(join(dir, 'taken', 'inside'));
    await expect(writeFileAtomic(join(dir, 'taken'), 'new')).rejects.toThrow();
    expect(() => {
      writeFileAtomicSync(join(dir, 'taken'), 'new');
    }).toThrow();
    expect(readdirSync(dir).sort()).toEqual(['a.json', 'taken']);
    expect(readFileSync(join(dir, 'a.json'), 'utf8')).toBe('kept');
  });
});
