// Perplexity, the ninth source: both thread-file shapes import, are searchable, and make
// bundles the official PAM validator accepts.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from './support/convert-to-temp.js';
import { pamValidate } from './support/pam-sdk.js';
import { ROOT } from './support/shared.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);
const answer = z.object({
  conversations: z.array(z.object({ title: z.string().nullable(), source: z.string() })),
});

describe('a folder of Perplexity thread files', () => {
  it('imports both shapes, finds them by words, and passes the official validator', async () => {
    const data = join(tempDir(), 'data');
    await run(process.execPath, [
      CLI,
      'import',
      join(ROOT, 'test', 'fixtures', 'perplexity'),
      '--data-dir',
      data,
      '-q',
    ]);
    const search = async (words: string) =>
      answer.parse(
        JSON.parse(
          (
            await run(process.execPath, [
              CLI,
              'search',
              words,
              '--mode',
              'keyword',
              '--data-dir',
              data,
              '--format',
              'json',
            ])
          ).stdout,
        ),
      ).conversations;
    expect(await search('acetone')).toEqual(
      [
        {
          title: 'My sourdough starter smells like nail polish remover after a week in the fridge…',
          source: 'perplexity',
        },
      ].map((c) => expect.objectContaining(c) as unknown),
    );
    expect((await search('bungalow')).map((c) => c.title)).toEqual([
      'Heat pump for a 1970s bungalow',
    ]);
    const { status, output } = pamValidate(join(data, 'bundle', 'memory-store.json'));
    expect(output).not.toMatch(/error/i);
    expect(status).toBe(0);
  });
});
