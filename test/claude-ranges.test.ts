// Issue 42, point 12: Claude.ai's export screen offers 30 days, 90 days or a custom range. Range
// exports that overlap, imported together or one after the other in either order, give each
// conversation once, whole: a range holds only its messages, so a conversation that spans two
// ranges is joined by the parent its later messages name.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Folder } from '../src/folder/folder.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { exitCodeOf } from '../src/pipeline/exit-code.js';
import { FIXED_TIME, convertToTemp, tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const RANGES = join(ROOT, 'test', 'fixtures', 'claude-ai', 'ranges-2026');
const [NINETY, CUSTOM] = readdirSync(RANGES)
  .sort()
  .map((name) => join(RANGES, name));

const file = z.object({
  title: z.string().nullable(),
  messages: z.array(
    z.object({
      id: z.string(),
      parent_id: z.string().nullable(),
      content: z.object({ text: z.string().nullable() }),
    }),
  ),
});

function knivesThread(dataDir: string): string[] {
  const folder = join(dataDir, 'bundle', 'conversations');
  const conversations = readdirSync(folder).map((name) =>
    file.parse(JSON.parse(readFileSync(join(folder, name), 'utf8'))),
  );
  expect(conversations.map((c) => c.title).sort()).toEqual([
    'Balcony tomatoes',
    'Sharpening kitchen knives',
    'Sourdough hydration',
  ]);
  const knives = conversations.find((c) => c.title === 'Sharpening kitchen knives');
  const messages = knives?.messages ?? [];
  // One chain from one root: each message's parent is the one before it.
  expect(messages.filter((m) => m.parent_id === null)).toHaveLength(1);
  const byParent = new Map(messages.map((m) => [m.parent_id, m]));
  const thread: string[] = [];
  for (let at = byParent.get(null); at; at = byParent.get(at.id))
    thread.push(at.content.text ?? '');
  return thread;
}

describe('Claude.ai exports of overlapping time ranges', () => {
  it.each([
    ['together', [[NINETY ?? '', CUSTOM ?? '']]],
    ['the older range first', [[NINETY ?? ''], [CUSTOM ?? '']]],
    ['the newer range first', [[CUSTOM ?? ''], [NINETY ?? '']]],
  ])(
    'give each conversation once, whole, imported %s',
    async (_order, imports) => {
      const data = join(tempDir(), 'data');
      for (const inputs of imports) {
        const report = await importExports(new Folder(data), inputs, { importedAt: FIXED_TIME });
        expect(exitCodeOf(report)).toBe(0);
      }
      const thread = knivesThread(data);
      expect(thread).toHaveLength(6);
      expect(thread[0]).toMatch(/^I want to learn to sharpen/);
      expect(thread[4]).toMatch(/^Back again: my edge rolls/);
      // Either export again changes nothing.
      const again = await importExports(new Folder(data), [CUSTOM ?? '', NINETY ?? '']);
      expect(again.written.created).toBe(0);
      expect(knivesThread(data)).toEqual(thread);
    },
    60_000,
  );

  it('reads a range alone with the parent it lacks kept aside, not invented', async () => {
    const { conversations } = await convertToTemp([CUSTOM ?? '']);
    const knives = conversations.find((c) => c.title === 'Sharpening kitchen knives');
    expect(knives?.messages).toHaveLength(2);
    expect(knives?.messages[0]?.parent_id).toBeNull();
    expect(typeof knives?.messages[0]?.raw_metadata.missing_parent_id).toBe('string');
  });
});
