// Issue 42, points 4 and 5: what a platform delivers that holds no conversation is still an
// export. Claude.ai's memories and projects given alone (or beside an empty conversations.json)
// are imported, and Microsoft's header-only Copilot CSV is valid and empty: exit 0 with a notice.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { Folder } from '../src/folder/folder.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { exitCodeOf } from '../src/pipeline/exit-code.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { FIXED_TIME, convertToTemp, tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const FIXTURES = join(ROOT, 'test', 'fixtures');
const MEMORIES_ONLY = join(FIXTURES, 'claude-ai', 'memories-only-2026');
const PROJECT = join(MEMORIES_ONLY, 'projects', '4b8e2f10-6a3c-4d9e-8f71-0c2b3a4d5e61.json');
const DASHBOARD = join(FIXTURES, 'copilot', 'dashboard-2026');

describe("Claude.ai's memories and projects without conversations", () => {
  it.each([
    ['memories.json alone', [join(MEMORIES_ONLY, 'memories.json')], 2],
    ['a project file alone', [PROJECT], 2],
    ['both beside an empty conversations.json', [MEMORIES_ONLY], 4],
  ])('imports %s (exit 0)', async (_name, inputs, memories) => {
    const { report, store, conversations } = await convertToTemp(inputs);
    expect(conversations).toEqual([]);
    expect(exitCodeOf(report)).toBe(0);
    expect(store.memories).toHaveLength(memories);
  });

  it("keeps the account's memory, each project's memory, and the project with its documents", async () => {
    const data = join(tempDir(), 'data');
    const report = await importExports(new Folder(data), [MEMORIES_ONLY], {
      importedAt: FIXED_TIME,
    });
    expect(exitCodeOf(report)).toBe(0);
    const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
    try {
      const projects = await store.cypher(
        `MATCH (p:Project) OPTIONAL MATCH (p)-[:HAS_PROJECT_DOCUMENT]->(d:Document)
         RETURN p.name AS name, p.instructions AS instructions, d.title AS doc`,
      );
      expect(projects).toEqual([
        {
          name: 'Wedding planning',
          instructions: 'Answer as a wedding planner who knows northern Portugal.',
          doc: 'Claude AI project Wedding planning: guest-list.md',
        },
      ]);
      const memories = await store.cypher(
        'MATCH (m:Memory) RETURN m.type AS type, m.content AS content ORDER BY content',
      );
      expect(memories).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            type: 'context',
            content: expect.stringContaining('learning Portuguese') as unknown,
          }),
          expect.objectContaining({
            type: 'project',
            content: expect.stringContaining('Quinta da Aveleda') as unknown,
          }),
        ]),
      );
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe("Microsoft's header-only Copilot CSV", () => {
  it('is valid and empty: exit 0, with a notice, beside the CSV that has rows', async () => {
    const { report, conversations } = await convertToTemp([DASHBOARD]);
    expect(conversations).toHaveLength(1);
    expect(exitCodeOf(report)).toBe(0);
    expect(report.totals.skipped).toBe(0);
    const notice = report.problems.find((p) => p.code === 'empty-file');
    expect(notice?.level).toBe('info');
    expect(notice?.examples[0]?.file).toMatch(/copilot-chat-activity\.csv$/);
  });

  it('given alone, is exit 0 too', async () => {
    const { report } = await convertToTemp([join(DASHBOARD, 'copilot-chat-activity.csv')]);
    expect(exitCodeOf(report)).toBe(0);
  });
});
