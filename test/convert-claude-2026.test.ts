import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { importExports, reindex } from '../src/data-folder/import-exports.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { FIXED_TIME, convertToTemp, tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { Folder } from '../src/folder/folder.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);
const FIXTURES = join(ROOT, 'test', 'fixtures', 'claude-ai');
const DELIVERY = join(FIXTURES, 'delivery-2026');
const BATCHES = join(FIXTURES, 'batches-2026');
const PARTS = readdirSync(DELIVERY).map((name) => join(DELIVERY, name));
const MANIFEST = PARTS.find((path) => /manifest-[^/]*\.json$/.test(path)) ?? '';

async function withStore<T>(dataDir: string, use: (store: SqliteStore) => Promise<T>): Promise<T> {
  const store = SqliteStore.open(layoutOf(dataDir).store, { readonly: true });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('the Claude.ai 2026 delivery', () => {
  it('reads the parts given one by one as it reads the folder holding them', async () => {
    const folder = await convertToTemp([DELIVERY]);
    const together = await convertToTemp(PARTS);
    expect(together.report.problems).toEqual([]);
    expect(together.conversations.map((c) => c.title).sort()).toEqual([
      'Greenhouse heating for winter',
      'Seed order for spring',
    ]);
    // The same conversations; only where each was read from differs.
    const read = (c: (typeof folder.conversations)[number]): unknown => ({
      ...c,
      import_metadata: { ...c.import_metadata, source_file: null },
    });
    expect(together.conversations.map(read)).toEqual(folder.conversations.map(read));
    expect(together.store.memories).toEqual(folder.store.memories);
    expect(together.store.owner.id).toBe('b7e0c2a4-5d1f-4c3e-9a8b-6f2d1e0c9b01');
    // The manifest is recognised as the delivery's list, not refused or converted.
    expect(together.report.files.find((f) => f.role === 'manifest')?.variant).toBe(
      'delivery-manifest',
    );
  });

  it('imports whole: projects become Project nodes with their documents, found by words', async () => {
    const data = join(tempDir(), 'data');
    const report = await importExports(new Folder(data), [DELIVERY], { importedAt: FIXED_TIME });
    expect(report.problems).toEqual([]);
    await withStore(data, async (store) => {
      const projects = await store.cypher(
        `MATCH (p:Project) OPTIONAL MATCH (p)-[:HAS_PROJECT_DOCUMENT]->(d:Document)
         RETURN p.name AS name, p.source AS source, p.description AS description,
                p.instructions AS instructions, d.title AS doc, d.content AS content
         ORDER BY name, doc`,
      );
      expect(projects).toEqual([
        {
          name: 'Allotment greenhouse',
          source: 'claude-ai',
          description: 'Planning the 3 × 4 m greenhouse on plot 17',
          instructions:
            'Answer as a practical gardener in a cold, wet climate. Give quantities in metric.',
          doc: 'Claude AI project Allotment greenhouse: frost-log.md',
          content: expect.stringContaining('paraffin heater on, 6 °C inside') as unknown,
        },
        {
          name: 'Allotment greenhouse',
          source: 'claude-ai',
          description: 'Planning the 3 × 4 m greenhouse on plot 17',
          instructions:
            'Answer as a practical gardener in a cold, wet climate. Give quantities in metric.',
          doc: 'Claude AI project Allotment greenhouse: layout.txt',
          content: expect.stringContaining('overwintering chillies') as unknown,
        },
        {
          name: 'Cycling club newsletter',
          source: 'claude-ai',
          description: null,
          instructions: null,
          doc: null,
          content: null,
        },
      ]);
      const found = await store.memories.search('overwintering chillies', 5);
      expect(found.map((m) => m.id)).toHaveLength(1);
      // Project batches are not conversations.
      expect(await store.conversationCount()).toBe(2);
    });
    // The bundle is the record: a reindex makes the same projects from it alone.
    const before = await withStore(data, (store) => store.counts());
    await reindex(new Folder(data));
    expect(await withStore(data, (store) => store.counts())).toEqual(before);
  });

  it('links a conversation that names its project, and lists it by the project', async () => {
    const data = join(tempDir(), 'data');
    await importExports(new Folder(data), [DELIVERY, join(FIXTURES, 'project-linked-2026.json')], {
      importedAt: FIXED_TIME,
    });
    await withStore(data, async (store) => {
      const linked = await store.cypher(
        `MATCH (p:Project)-[:HAS_SESSION]->(c:Conversation) RETURN p.name AS project, p.instructions AS instructions, c.title AS title`,
      );
      // The project's own batch, written after the conversations, fills in the node.
      expect(linked).toEqual([
        {
          project: 'Allotment greenhouse',
          instructions:
            'Answer as a practical gardener in a cold, wet climate. Give quantities in metric.',
          title: 'Shade paint in July',
        },
      ]);
      const page = await store.listConversations({ project: 'greenhouse' });
      expect(page.items.map((c) => c.title)).toEqual(['Shade paint in July']);
    });
  });

  it('reads batches named data-…-batch-NNNN.zip given together', async () => {
    const zips = readdirSync(BATCHES).map((name) => join(BATCHES, name));
    expect(zips.every((path) => /-batch-\d{4}\.zip$/.test(path))).toBe(true);
    const { conversations, store, report } = await convertToTemp(zips);
    expect(report.problems).toEqual([]);
    expect(conversations.map((c) => c.title).sort()).toEqual([
      'Chain wax or oil?',
      'Newsletter headline',
    ]);
    expect(store.owner.id).toBe('b7e0c2a4-5d1f-4c3e-9a8b-6f2d1e0c9b01');
    expect(store.memories.map((m) => m.summary).sort()).toEqual([
      'Cycling club newsletter',
      'routes.md',
    ]);
  });

  it('reports each listed part that was not given (exit 1), and says what to download when only the manifest is given (exit 2)', async () => {
    const dir = tempDir();
    const partial = join(dir, 'partial');
    const some = PARTS.filter((path) => !/projects-000\.zip$|memories\.json$/.test(path));
    const missing = await cli(['convert', ...some, '--out', partial]);
    expect(missing.code).toBe(1);
    expect(missing.stdout + missing.stderr).toMatch(
      /the manifest lists memories\.json, which was not given/,
    );
    expect(missing.stdout + missing.stderr).toMatch(/the manifest lists projects-000\.zip/);
    expect(missing.stdout + missing.stderr).not.toMatch(/lists users\.json/);

    const alone = join(dir, 'alone');
    const only = await cli(['convert', MANIFEST, '--out', alone]);
    expect(only.code).toBe(2);
    expect(only.stderr).toMatch(
      /is Claude\.ai's list of download links, not the export itself: download the 4 files it lists \(conversations-000\.zip, memories\.json, projects-000\.zip, users\.json\)/,
    );
    expect(only.stderr.trim().split('\n')).toHaveLength(1);
  });
});
