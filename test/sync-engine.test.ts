import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataFolder } from '../src/index.js';
import { syncFolder } from '../src/sync/sync-folder.js';
import { tempDir } from './support/convert-to-temp.js';
import { standInGroup } from './support/sync-stand-in.js';
import { chatExport, holdings } from './support/sync-machines.js';
import { rmSync } from 'node:fs';

const root = tempDir('chatgraph-sync-');
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

async function sync(
  data: string,
  group: Awaited<ReturnType<typeof standInGroup>>[number],
  dir: string,
) {
  const folder = await DataFolder.open(data);
  try {
    return await syncFolder(folder, group, dir);
  } finally {
    await folder.close();
  }
}

describe('sync through one folder', () => {
  it('leaves two machines with the same conversations and memories', async () => {
    const dir = join(root, 'shared');
    const groups = await standInGroup(['A', 'B'], join(root, 'keys'));
    const data = ['A', 'B'].map((n) => join(root, `data-${n}`));
    for (const [i, d] of data.entries()) {
      const folder = await DataFolder.open(d);
      await folder.import([
        chatExport(
          join(root, `in-${String(i)}`, 'conversations.json'),
          `conv-${String(i)}`,
          `word${String(i)}`,
        ),
      ]);
      await folder.remember({ content: `fact number ${String(i)}`, type: 'fact' });
      await folder.close();
    }
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    for (const round of [1, 2])
      for (const [i, d] of data.entries()) {
        const report = await sync(d, groups[i]!, dir);
        console.log(round, i, JSON.stringify(report));
      }
    const [a, b] = await Promise.all(data.map(holdings));
    expect(a).toEqual(b);
    expect(a?.conversations).toHaveLength(2);
    expect(a?.memories).toHaveLength(2);
  }, 60_000);
});
