import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importExports, reindex } from '../src/data-folder/import-exports.js';
import { BadBundleFileError, readBundleConversation } from '../src/bundle/read-bundle.js';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { FIXED_TIME, tempDir } from './support/convert-to-temp.js';
import { CLI, chatgraph } from './support/run-cli.js';
import { Folder } from '../src/folder/folder.js';
import { bundleAt } from './support/bundle-at.js';

/** A data folder of 5 conversations, two of whose bundle files are then spoiled. */
async function spoiledDataFolder(): Promise<{ data: string; damaged: string; alien: string }> {
  const dir = tempDir();
  const input = join(dir, 'export.zip');
  await writeChatgptExport(input, { seed: 4, conversations: 5 });
  const data = join(dir, 'data');
  await importExports(new Folder(data), [input], { importedAt: FIXED_TIME });
  const folder = join(data, 'bundle', 'conversations');
  const [first, second] = readdirSync(folder).sort();
  if (!first || !second) throw new Error('the import wrote fewer than two conversations');
  const damaged = join(folder, first);
  writeFileSync(damaged, readFileSync(damaged, 'utf8').slice(0, 200));
  const alien = join(folder, second);
  const conversation = JSON.parse(readFileSync(alien, 'utf8')) as { provider: { name: string } };
  conversation.provider.name = 'future-chat';
  writeFileSync(alien, JSON.stringify(conversation));
  return { data, damaged, alien };
}

describe('reindex of a bundle with files it cannot index', () => {
  it('names each file left out, and indexes the rest', async () => {
    const { data, damaged, alien } = await spoiledDataFolder();
    const result = await reindex(new Folder(data));
    expect(result.conversations).toBe(3);
    expect(result.problems.map((p) => [p.code, p.file])).toEqual([
      ['bad-bundle-file', damaged],
      ['unknown-provider', alien],
    ]);
    expect(result.problems[0]?.message).toMatch(/is not JSON/);
    expect(result.problems[1]?.message).toMatch(/"future-chat" is not one chatgraph knows/);
    // Asked for by id, the damaged file is an error naming it, not a crash or a wrong value.
    const id = damaged.slice(damaged.lastIndexOf('/') + 1, -'.json'.length);
    await expect(readBundleConversation(bundleAt(join(data, 'bundle')), id)).rejects.toThrow(
      BadBundleFileError,
    );
  });

  it('a bundle file of the wrong shape is named with the fields that do not fit', async () => {
    const { data, damaged } = await spoiledDataFolder();
    writeFileSync(damaged, JSON.stringify({ schema: 'portable-ai-memory-conversation', id: 7 }));
    const { problems } = await reindex(new Folder(data));
    expect(problems[0]?.message).toMatch(/not a PAM conversation: schema_version: .*; id: /);
  });

  it('the CLI says so on stderr and exits 1', async () => {
    expect(existsSync(CLI)).toBe(true);
    const { data, damaged, alien } = await spoiledDataFolder();
    const { code, stdout, stderr } = await chatgraph('reindex', '--data-dir', data, '-q');
    expect(code).toBe(1);
    expect(stdout).toContain('re-indexed 3 conversations from the bundle');
    expect(stderr).toContain(damaged);
    expect(stderr).toContain(alien);
    expect(stderr).toContain('2 bundle files left out');
  });
});
