// Issue 42, point 3: a Gemini canvas ("Created Gemini Canvas titled …" in Takeout) is a document
// of its conversation, found by a phrase of its text, not a prompt with its text in raw_metadata.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);
const hits = z.object({
  hits: z.array(
    z.object({
      role: z.string().optional(),
      attachment: z.object({ name: z.string().nullable() }).optional(),
    }),
  ),
});

describe('a Gemini canvas from Takeout', () => {
  it('is a named document of its conversation that a phrase search finds', async () => {
    const data = join(tempDir(), 'data');
    await run(process.execPath, [
      CLI,
      'import',
      join(ROOT, 'test', 'fixtures', 'gemini', 'canvas-2026'),
      '--data-dir',
      data,
      '-q',
    ]);
    const { stdout } = await run(process.execPath, [
      CLI,
      'search',
      '"chickpea and spinach curry"',
      '--mode',
      'keyword',
      '--per-message',
      '--data-dir',
      data,
      '--format',
      'json',
    ]);
    const found = hits.parse(JSON.parse(stdout)).hits;
    expect(found.map((hit) => hit.attachment?.name)).toEqual(['Weekly meal plan']);
  }, 60_000);
});
