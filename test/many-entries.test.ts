import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { ZipWriter } from '../src/sample/zip-writer.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { FIXED_TIME, tempDir } from './support/convert-to-temp.js';
import { Folder } from '../src/folder/folder.js';

// Past the 16-bit entry count (so the writer needs zip64) and past what one call's arguments hold.
const ENTRIES = 150_000;

async function manyEntryZip(path: string): Promise<void> {
  const writer = new ZipWriter(path);
  await writer.add('conversations.json', JSON.stringify([branchedConversation('many')]));
  for (let n = 0; n < ENTRIES; n++) await writer.add(`notes/${n}.txt`, '', { store: true });
  await writer.close();
}

describe('a zip of very many entries', () => {
  it(`imports with ${ENTRIES} entries`, async () => {
    const dir = tempDir();
    const zip = join(dir, 'export.zip');
    await manyEntryZip(zip);
    const report = await importExports(new Folder(join(dir, 'data')), [zip], {
      importedAt: FIXED_TIME,
    });
    expect(report.graph).toMatchObject({ written: 1 });
  }, 120_000);

  it(`imports with ${ENTRIES} entries inside a zip inside a zip`, async () => {
    const dir = tempDir();
    const inner = join(dir, 'inner.zip');
    await manyEntryZip(inner);
    const outer = join(dir, 'outer.zip');
    const writer = new ZipWriter(outer);
    await writer.add('conversations-000.zip', readFileSync(inner));
    await writer.close();
    const report = await importExports(new Folder(join(dir, 'data')), [outer], {
      importedAt: FIXED_TIME,
    });
    expect(report.graph).toMatchObject({ written: 1 });
  }, 120_000);
});
