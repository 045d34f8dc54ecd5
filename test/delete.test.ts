import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { deleteConversation } from '../src/data-folder/delete-conversation.js';
import { readTombstones } from '../src/folder/deleted-conversations.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { DataFolder } from '../src/data-folder/data-folder.js';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { startWebApp } from '../src/web/web-server.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph } from './support/run-cli.js';
import { Folder } from '../src/folder/folder.js';

const cli = chatgraph;

interface Indexed {
  conversations_index: { id: string }[];
}

function bundleFiles(data: string): { id: string; text: string }[] {
  const dir = join(layoutOf(data).bundle.dir, 'conversations');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ id: f.slice(0, -5), text: readFileSync(join(dir, f), 'utf8') }));
}

function indexIds(data: string): string[] {
  const store = JSON.parse(
    readFileSync(join(layoutOf(data).bundle.dir, 'memory-store.json'), 'utf8'),
  ) as Indexed;
  return store.conversations_index.map((e) => e.id);
}

async function storeHas(data: string, id: string): Promise<boolean> {
  const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
  try {
    return (await store.conversation(id)) !== undefined;
  } finally {
    await store.close();
  }
}

// An export folder with one conversation whose image only it names (the samples share theirs).
function ownAttachmentExport(dir: string): string {
  const folder = join(dir, 'own');
  mkdirSync(folder, { recursive: true });
  const conversation = branchedConversation('own-attachment', 'With its own picture');
  const mapping = conversation.mapping as Record<string, { message: Record<string, unknown> }>;
  (mapping.u as { message: Record<string, unknown> }).message.content = {
    content_type: 'multimodal_text',
    parts: [
      {
        content_type: 'image_asset_pointer',
        asset_pointer: 'file-service://file-Own1',
        size_bytes: 4,
      },
      'what is in this picture?',
    ],
  };
  writeFileSync(join(folder, 'conversations.json'), JSON.stringify([conversation]));
  writeFileSync(join(folder, 'file-Own1-photo.png'), 'PNG!');
  return folder;
}

async function setup(): Promise<{ data: string; input: string; total: number }> {
  const dir = tempDir();
  const input = join(dir, 'export.zip');
  await writeChatgptExport(input, { seed: 11, conversations: 30 });
  const data = join(dir, 'data');
  await importExports(new Folder(data), [input, ownAttachmentExport(dir)]);
  return { data, input: join(dir, 'export.zip'), total: bundleFiles(data).length };
}

describe('chatgraph delete (compiled CLI)', () => {
  it('removes a conversation everywhere, keeps it out of a forced re-import, and --restore brings it back', async () => {
    const { data, input, total } = await setup();
    // A conversation with an attachment only it names, and one whose attachment others name too.
    const files = bundleFiles(data);
    const refsOf = (text: string): string[] => [
      ...new Set([...text.matchAll(/"(attachments\/[^"]+)"/g)].map((m) => m[1] ?? '')),
    ];
    const withRefs = files.filter((f) => refsOf(f.text).length > 0);
    expect(withRefs.length).toBeGreaterThan(0);
    const victim = withRefs[0] as { id: string; text: string };
    const refs = refsOf(victim.text);
    const shared = refs.filter((ref) =>
      files.some((f) => f.id !== victim.id && f.text.includes(`"${ref}"`)),
    );
    const own = refs.filter((ref) => !shared.includes(ref));
    const platformId = (JSON.parse(victim.text) as { provider: { conversation_id: string } })
      .provider.conversation_id;

    const deleted = await cli('delete', platformId, '--data-dir', data);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`deleted conversation ${victim.id}`);
    expect(existsSync(join(layoutOf(data).bundle.dir, 'conversations', `${victim.id}.json`))).toBe(
      false,
    );
    expect(indexIds(data)).not.toContain(victim.id);
    expect(indexIds(data)).toHaveLength(total - 1);
    for (const ref of own) expect(existsSync(join(layoutOf(data).bundle.dir, ref))).toBe(false);
    for (const ref of shared) expect(existsSync(join(layoutOf(data).bundle.dir, ref))).toBe(true);
    expect(await storeHas(data, platformId)).toBe(false);
    const thread = await cli('thread', platformId, '--data-dir', data);
    expect(thread.code).toBe(2);
    expect((await readTombstones(new Folder(data))).map((t) => [t.id, t.platformId])).toEqual([
      [victim.id, platformId],
    ]);

    // Again: nothing by that id any more (one sentence, exit 2).
    const again = await cli('delete', platformId, '--data-dir', data);
    expect(again.code).toBe(2);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
    expect(again.stderr).toContain(`there is no conversation "${platformId}"`);

    const forced = await cli('import', input, '--data-dir', data, '--force', '--json', '-q');
    expect(forced.code, forced.stderr).toBe(0);
    expect(
      (JSON.parse(forced.stdout) as { problems: { code: string }[] }).problems.map((p) => p.code),
    ).toContain('deleted-conversation-left-out');
    expect(existsSync(join(layoutOf(data).bundle.dir, 'conversations', `${victim.id}.json`))).toBe(
      false,
    );
    expect(await storeHas(data, victim.id)).toBe(false);
    expect(indexIds(data)).toHaveLength(total - 1);

    const restored = await cli('import', input, '--data-dir', data, '--restore', '-q');
    expect(restored.code, restored.stderr).toBe(0);
    expect(await storeHas(data, victim.id)).toBe(true);
    expect(indexIds(data)).toContain(victim.id);
    for (const ref of refs) expect(existsSync(join(layoutOf(data).bundle.dir, ref))).toBe(true);
    expect(await readTombstones(new Folder(data))).toEqual([]);
  });

  it('deletes through the web app: DELETE /api/conversations/:id', async () => {
    const { data, total } = await setup();
    const folder = await DataFolder.open(data);
    const app = await startWebApp({ folder, port: 0 });
    try {
      const id = bundleFiles(data)[0]?.id ?? '';
      const url = `http://127.0.0.1:${app.port}/api/conversations/${id}`;
      expect((await fetch(url)).status).toBe(200);
      const response = await fetch(url, { method: 'DELETE' });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { id: string; store: boolean }).store).toBe(true);
      // The app's own open store sees the deletion.
      expect((await fetch(url)).status).toBe(404);
      expect((await fetch(url, { method: 'DELETE' })).status).toBe(404);
      expect(indexIds(data)).toHaveLength(total - 1);
      expect((await readTombstones(new Folder(data))).map((t) => t.id)).toEqual([id]);
    } finally {
      await app.close();
      await folder.close();
    }
  });

  it('deletes by chatgraph id from the library, with the attachment only it names', async () => {
    const { data, total } = await setup();
    const own = bundleFiles(data).find((f) => f.text.includes('file-Own1'));
    const ref = /"(attachments\/file-Own1[^"]*)"/.exec(own?.text ?? '')?.[1] ?? '';
    expect(existsSync(join(layoutOf(data).bundle.dir, ref))).toBe(true);
    const id = own?.id ?? '';
    const result = await deleteConversation(new Folder(data), id, {
      deletedAt: new Date('2026-01-01T00:00:00Z'),
    });
    expect(result).toMatchObject({ id, bundle: true, store: true, attachments: 1, problems: [] });
    expect(existsSync(join(layoutOf(data).bundle.dir, ref))).toBe(false);
    expect(
      existsSync(join(layoutOf(data).bundle.dir, 'attachments', 'file-Sample0Image1-diagram.png')),
    ).toBe(true);
    expect(indexIds(data)).toHaveLength(total - 1);
    expect(await readTombstones(new Folder(data))).toEqual([
      {
        id,
        platformId: result.platformId,
        source: 'chatgpt',
        deletedAt: '2026-01-01T00:00:00.000000Z',
      },
    ]);
  });

  it('exits 1 when an attachment file would not go, having deleted the rest', async () => {
    const { data, total } = await setup();
    const own = bundleFiles(data).find((f) => f.text.includes('file-Own1'));
    const attachments = join(layoutOf(data).bundle.dir, 'attachments');
    // An immutable folder (root ignores permissions): its files cannot be removed.
    try {
      execFileSync('chattr', ['+i', attachments], { stdio: 'ignore' });
    } catch {
      return expect.fail('chattr is needed to make the attachments folder undeletable');
    }
    try {
      const result = await cli('delete', own?.id ?? '', '--data-dir', data);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain('could not be removed');
      expect(result.stderr).toContain('file-Own1');
      expect(indexIds(data)).toHaveLength(total - 1);
      expect(await storeHas(data, own?.id ?? '')).toBe(false);
    } finally {
      execFileSync('chattr', ['-i', attachments], { stdio: 'ignore' });
    }
  });
});
