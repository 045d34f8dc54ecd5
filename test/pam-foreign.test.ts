import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatReport } from '../src/cli/format-report.js';
import { DataFolder } from '../src/data-folder/data-folder.js';
import type { ImportResult } from '../src/data-folder/import-exports.js';
import { layoutOf } from '../src/folder/layout.js';
import { contentHash } from '../src/model/content-hash.js';
import { integrityChecksum } from '../src/model/integrity.js';
import type { Conversation, Memory } from '../src/model/pam.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { expectPamValid } from './support/merge-scenarios.js';
import { memoryStoreErrors } from './support/pam-validator.js';

// Issue 41, points 1–3: a PAM bundle of someone else (anyone can compute a conversation's id
// from its URL, name an attachment as yours is named, reuse your memories' ids and the id of
// the export you shared) never replaces a byte of yours; what it brings is kept beside, and said.

const MINE = 'PNG! mine';

// My ChatGPT export: one conversation with a picture of its own.
function myExport(dir: string): string {
  const folder = join(dir, 'mine');
  mkdirSync(folder, { recursive: true });
  const conversation = branchedConversation('my-chat', 'My own chat');
  const mapping = conversation.mapping as Record<string, { message: Record<string, unknown> }>;
  (mapping.u as { message: Record<string, unknown> }).message.content = {
    content_type: 'multimodal_text',
    parts: [
      { content_type: 'image_asset_pointer', asset_pointer: 'file-service://file-Own1' },
      'what is in this picture?',
    ],
  };
  writeFileSync(join(folder, 'conversations.json'), JSON.stringify([conversation]));
  writeFileSync(join(folder, 'file-Own1-photo.png'), MINE);
  return folder;
}

function memory(id: string, content: string, status: Memory['status'] = 'active'): Memory {
  return {
    id,
    type: 'preference',
    status,
    content,
    content_hash: contentHash(content),
    tags: [],
    temporal: { created_at: '2026-03-01T10:00:00Z', updated_at: '2026-03-09T10:00:00Z' },
    provenance: { platform: 'manual', extraction_method: 'manual', extractor: 'intruder/1.0.0' },
  };
}

function memoryStore(
  memories: Memory[],
  exportId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    schema: 'portable-ai-memory',
    schema_version: '1.0',
    export_id: exportId,
    exported_by: 'intruder/1.0.0',
    export_date: '2026-03-10T00:00:00Z',
    owner: { id: 'intruder' },
    memories,
    relations: [],
    integrity: {
      canonicalization: 'RFC8785',
      checksum: integrityChecksum(memories),
      total_memories: memories.length,
    },
    export_type: 'full',
    ...extra,
  };
}

function bundleFiles(data: string): Map<string, string> {
  const dir = join(layoutOf(data).bundle.dir, 'conversations');
  return new Map(
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f.slice(0, -5), readFileSync(join(dir, f), 'utf8')]),
  );
}

interface Mine {
  data: string;
  id: string;
  file: string;
  memoryId: string;
  exportId: string;
}

async function myFolder(dir: string): Promise<Mine> {
  const data = join(dir, 'data');
  const folder = await DataFolder.open(data);
  try {
    await folder.import([myExport(dir)]);
    const [id, file] = [...bundleFiles(data)][0] ?? ['', ''];
    const made = await folder.remember({
      content: 'I take my tea without sugar',
      type: 'preference',
    });
    const shared = await folder.exportPam({ out: join(dir, 'shared') });
    if ('refused' in shared) throw new Error(shared.refused);
    return { data, id, file, memoryId: made.memory.id, exportId: shared.exportId };
  } finally {
    await folder.close();
  }
}

// A foreign bundle: my conversation's id, a later time, another chat and owner, its own
// picture under my picture's name; memories with my memory's id; an increment of my export.
function foreignBundle(dir: string, mine: Mine): { bundle: string; delta: string } {
  const bundle = join(dir, 'foreign');
  mkdirSync(join(bundle, 'conversations'), { recursive: true });
  mkdirSync(join(bundle, 'attachments'), { recursive: true });
  const copy = JSON.parse(mine.file) as Conversation & { import_metadata?: unknown };
  delete copy.import_metadata;
  const theirs: Conversation = {
    ...copy,
    title: 'Their chat',
    provider: { ...copy.provider, conversation_id: 'their-chat', account_id: 'intruder' },
    temporal: { created_at: copy.temporal.created_at, updated_at: '2030-01-01T00:00:00.000000Z' },
    messages: copy.messages.map((m) => ({
      ...m,
      provider_message_id: null,
      content: { type: 'text', text: 'their words' },
    })),
  };
  writeFileSync(join(bundle, 'conversations', `${mine.id}.json`), JSON.stringify(theirs));
  writeFileSync(join(bundle, 'attachments', 'file-Own1-photo.png'), 'EVIL bytes, longer than mine');
  writeFileSync(
    join(bundle, 'memory-store.json'),
    JSON.stringify(
      memoryStore([memory(mine.memoryId, 'I take my tea with five sugars')], 'foreign-full'),
    ),
  );
  const delta = join(dir, 'delta');
  mkdirSync(delta);
  writeFileSync(
    join(delta, 'memory-store.json'),
    JSON.stringify(
      memoryStore([memory(mine.memoryId, 'I take my tea without sugar', 'retracted')], 'delta-1', {
        export_type: 'incremental',
        base_export_id: mine.exportId,
      }),
    ),
  );
  return { bundle, delta };
}

function bundleMemories(data: string): Memory[] {
  const text = readFileSync(join(layoutOf(data).bundle.dir, 'memory-store.json'), 'utf8');
  return (JSON.parse(text) as { memories: Memory[] }).memories;
}

interface Imported {
  mine: Mine;
  bundle: string;
  delta: string;
  result: ImportResult;
  myMemories: Memory[];
  picture: string;
  files: Map<string, string>;
  apartId: string;
  apart: Conversation;
}

// My folder, then the foreign bundle imported into it.
async function importForeign(): Promise<Imported> {
  const dir = tempDir();
  const mine = await myFolder(dir);
  const myMemories = bundleMemories(mine.data);
  const picture = join(layoutOf(mine.data).bundle.dir, 'attachments', 'file-Own1-photo.png');
  expect(readFileSync(picture, 'utf8')).toBe(MINE);
  const { bundle, delta } = foreignBundle(dir, mine);
  const folder = await DataFolder.open(mine.data);
  try {
    const result = await folder.import([bundle]);
    const files = bundleFiles(mine.data);
    const [apartId, apartText] = [...files].find(([id]) => id !== mine.id) ?? ['', '{}'];
    const apart = JSON.parse(apartText) as Conversation;
    return { mine, bundle, delta, result, myMemories, picture, files, apartId, apart };
  } finally {
    await folder.close();
  }
}

describe('a foreign PAM bundle (issue 41, points 1–3)', () => {
  it("1: a conversation with my conversation's id replaces nothing: both kept, and said", async () => {
    const { mine, result, files, apartId, apart } = await importForeign();
    expect(files.get(mine.id)).toBe(mine.file);
    expect(files.size).toBe(2);
    expect(apart.provider.conversation_id).toBe('their-chat');
    expect(apart.messages[0]?.content?.text).toBe('their words');
    expect(result.providers.pam?.keptApart).toBe(1);
    const said = result.problems.find((p) => p.code === 'conversation-kept-apart');
    expect(said?.level).toBe('warning');
    expect(said?.examples[0]?.message).toContain(`kept both, this one as ${apartId}`);
    expect(said?.examples[0]?.message).toContain('platform conversation id');
    expect(formatReport(result)).toContain('kept 1 conversation apart');
    expectPamValid(mine.data);
  });

  it("2: an attachment with my attachment's name overwrites nothing: theirs has a place of its own", async () => {
    const { mine, picture, files, apartId, apart } = await importForeign();
    expect(readFileSync(picture, 'utf8')).toBe(MINE);
    const ref = apart.messages.flatMap((m) => m.attachments).find((a) => a.ref !== null)?.ref;
    expect(ref).toBe(`attachments/${apartId}/file-Own1-photo.png`);
    expect(readFileSync(join(layoutOf(mine.data).bundle.dir, ref ?? ''), 'utf8')).toBe(
      'EVIL bytes, longer than mine',
    );
    expect(files.get(mine.id)).toContain('"attachments/file-Own1-photo.png"');
  });

  it('3: memories of another owner are added beside mine, never over them', async () => {
    const { mine, result, myMemories } = await importForeign();
    const after = bundleMemories(mine.data);
    expect(after.find((m) => m.id === mine.memoryId)).toEqual(
      myMemories.find((m) => m.id === mine.memoryId),
    );
    const beside = after.filter((m) => m.id !== mine.memoryId);
    expect(beside.map((m) => [m.content, m.metadata?.pam_owner_id])).toEqual([
      ['I take my tea with five sugars', 'intruder'],
    ]);
    expect(result.problems.find((p) => p.code === 'memory-kept-apart')?.count).toBe(1);
    expect(
      memoryStoreErrors(
        JSON.parse(readFileSync(join(layoutOf(mine.data).bundle.dir, 'memory-store.json'), 'utf8')),
      ),
    ).toEqual([]);
    expectPamValid(mine.data);
  });

  it('3: an increment of my own export-pam, written for another owner, retracts nothing of mine', async () => {
    const dir = tempDir();
    const mine = await myFolder(dir);
    const { delta } = foreignBundle(dir, mine);
    const folder = await DataFolder.open(mine.data);
    try {
      const retract = await folder.import([delta]);
      const refused = retract.problems.find((p) => p.code === 'pam-base-owner');
      expect(refused?.level).toBe('error');
      expect(refused?.examples[0]?.message).toContain(`names the export ${mine.exportId}`);
    } finally {
      await folder.close();
    }
    expect(bundleMemories(mine.data).find((m) => m.id === mine.memoryId)?.status).toBe('active');
  });

  it('the same foreign bundle again lands in the same places and adds nothing', async () => {
    const { mine, bundle, files, picture } = await importForeign();
    const folder = await DataFolder.open(mine.data);
    try {
      const again = await folder.import([bundle], { force: true });
      expect(again.written).toMatchObject({ created: 0, updated: 0 });
    } finally {
      await folder.close();
    }
    const twice = bundleFiles(mine.data);
    expect(twice).toEqual(files);
    expect(readFileSync(picture, 'utf8')).toBe(MINE);
    expect(readdirSync(join(layoutOf(mine.data).bundle.dir, 'attachments'))).toHaveLength(2);
  });

  it('the same conversation (same platform, platform id and account) still merges by the merge rules', async () => {
    const dir = tempDir();
    const mine = await myFolder(dir);
    const bundle = join(dir, 'copy');
    mkdirSync(join(bundle, 'conversations'), { recursive: true });
    const copy = JSON.parse(mine.file) as Conversation & { import_metadata?: unknown };
    delete copy.import_metadata;
    const renamed = {
      ...copy,
      title: 'My own chat, renamed',
      temporal: { ...copy.temporal, updated_at: '2030-01-01T00:00:00.000000Z' },
    };
    writeFileSync(join(bundle, 'conversations', `${mine.id}.json`), JSON.stringify(renamed));
    const folder = await DataFolder.open(mine.data);
    try {
      const result = await folder.import([bundle]);
      expect(result.providers.pam?.keptApart).toBe(0);
      const files = bundleFiles(mine.data);
      expect(files.size).toBe(1);
      expect((JSON.parse(files.get(mine.id) ?? '') as Conversation).title).toBe(
        'My own chat, renamed',
      );
    } finally {
      await folder.close();
    }
  });
});
