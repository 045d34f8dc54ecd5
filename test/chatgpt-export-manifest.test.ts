import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { exitCodeOf } from '../src/pipeline/exit-code.js';
import type { ImportReport } from '../src/pipeline/import-report.js';
import type { Diagnostic } from '../src/model/diagnostic.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { FIXED_TIME, convertToTemp, tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { Folder } from '../src/folder/folder.js';

const EXPORT = join(ROOT, 'test', 'fixtures', 'chatgpt', 'sharded-manifest-2026');

const examples = (report: ImportReport): Diagnostic[] => report.problems.flatMap((p) => p.examples);

/** A copy of the fixture export to change. */
function copyOfExport(): string {
  const dir = join(tempDir(), 'export');
  cpSync(EXPORT, dir, { recursive: true });
  return dir;
}

describe("ChatGPT's export_manifest.json", () => {
  it('checks the shards it lists: all there, nothing to say', async () => {
    const { conversations, report } = await convertToTemp([EXPORT]);
    expect(report.problems).toEqual([]);
    expect(exitCodeOf(report)).toBe(0);
    expect(conversations).toHaveLength(4);
    expect(report.files.find((f) => f.role === 'manifest')?.variant).toBe('export-manifest');
  });

  it('reports a listed shard the export lacks, naming it (exit 1)', async () => {
    const dir = copyOfExport();
    rmSync(join(dir, 'conversations-001.json'));
    const { conversations, report } = await convertToTemp([dir]);
    expect(conversations).toHaveLength(2); // the voice conversation was in the missing shard
    expect(examples(report)).toEqual([
      expect.objectContaining({
        level: 'error',
        code: 'export-shard-missing',
        message: expect.stringContaining(
          'lists conversations-001.json, which the export does not hold',
        ) as unknown,
      }),
    ]);
    expect(exitCodeOf(report)).toBe(1);
  });

  it('reads a shard it does not list, with a notice (exit 0)', async () => {
    const dir = copyOfExport();
    // Another conversation, in a shard the manifest does not name.
    const shard = readFileSync(join(dir, 'conversations-001.json'), 'utf8');
    writeFileSync(
      join(dir, 'conversations-002.json'),
      shard.replaceAll('9a0b-0000000001', '9a0b-0000000002'),
    );
    const { report } = await convertToTemp([dir]);
    expect(examples(report).map((p) => [p.level, p.code, p.file])).toEqual([
      ['info', 'export-shard-unlisted', expect.stringContaining('conversations-002.json')],
    ]);
    expect(exitCodeOf(report)).toBe(0);
  });

  it('falls back to the shards present when its shape is unknown, with a notice (exit 0)', async () => {
    const dir = copyOfExport();
    writeFileSync(join(dir, 'export_manifest.json'), JSON.stringify({ version: 9, parts: 3 }));
    const { conversations, report } = await convertToTemp([dir]);
    expect(conversations).toHaveLength(4);
    expect(examples(report)).toEqual([
      expect.objectContaining({
        level: 'info',
        code: 'export-manifest-unknown',
        message: expect.stringContaining('the 2 conversation files present were read') as unknown,
      }),
    ]);
    expect(exitCodeOf(report)).toBe(0);
  });

  it("keeps a voice conversation's transcripts as its text and its audio as attachments", async () => {
    const { conversations } = await convertToTemp([EXPORT]);
    const voice = conversations.find((c) => c.title === 'Dinner from the fridge');
    const messages = voice?.messages ?? [];
    expect(messages.map((m) => [m.role, (m.content?.text ?? '').slice(0, 30)])).toEqual([
      ['user', 'I have leeks, eggs and some ch'],
      ['assistant', 'A leek and cheddar frittata: s'],
    ]);
    expect(messages.map((m) => m.attachments.map((a) => [a.type, a.mime_type, a.ref]))).toEqual([
      [['audio', 'audio/wav', expect.stringMatching(/^attachments\/file_00000000a1b2.*\.wav$/)]],
      [['audio', 'audio/wav', expect.stringMatching(/^attachments\/file_00000000f6e5.*\.wav$/)]],
    ]);
  });

  it('gives conversations their project, custom GPT, study mode and memory scope in the graph', async () => {
    const data = join(tempDir(), 'data');
    await importExports(new Folder(data), [EXPORT], { importedAt: FIXED_TIME });
    const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
    try {
      expect(
        await store.cypher(
          `MATCH (c:Conversation) RETURN c.title AS title, c.gizmo_id AS gizmo, c.gizmo_type AS type,
             c.is_study_mode AS study, c.memory_scope AS scope ORDER BY title`,
        ),
      ).toEqual([
        {
          title: 'Cover letter tone',
          gizmo: 'g-2fkFE8rbu',
          type: 'gpt',
          study: false,
          scope: 'global_enabled',
        },
        {
          title: 'Dinner from the fridge',
          gizmo: null,
          type: null,
          study: false,
          scope: 'global_enabled',
        },
        {
          title: 'Kitchen renovation budget',
          gizmo: 'g-p-68b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4',
          type: 'snorlax',
          study: false,
          scope: 'project_enabled',
        },
        {
          title: 'Photosynthesis flashcards',
          gizmo: null,
          type: null,
          study: true,
          scope: 'global_enabled',
        },
      ]);
      // A project gizmo (g-p-) is a project; a custom GPT (g-) is not.
      expect(
        await store.cypher(
          `MATCH (p:Project)-[:HAS_SESSION]->(c:Conversation) RETURN p.source AS source, p.project_id AS project, c.title AS title`,
        ),
      ).toEqual([
        {
          source: 'chatgpt',
          project: 'g-p-68b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4',
          title: 'Kitchen renovation budget',
        },
      ]);
      const page = await store.listConversations({ project: 'g-p-68b0' });
      expect(page.items.map((c) => c.title)).toEqual(['Kitchen renovation budget']);
    } finally {
      await store.close();
    }
  });
});
