import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_TIME, readBundleFiles, tempDir } from '../../test/support/convert-to-temp.js';
import { ROOT } from '../../test/support/shared.js';
import { convertExports } from './convert-exports.js';

const SAMPLE = join(ROOT, 'samples', 'chatgpt-export.zip');

describe('convertExports and its AbortSignal', () => {
  it('stops before reading anything when the signal is already aborted', async () => {
    const out = tempDir();
    const controller = new AbortController();
    controller.abort(new Error('stopped by the user'));
    await expect(
      convertExports([SAMPLE], { out, importedAt: FIXED_TIME, signal: controller.signal }),
    ).rejects.toThrow('stopped by the user');
    expect(existsSync(join(out, 'conversations'))).toBe(false);
  });

  it('stops between records, leaving whole conversation files only', async () => {
    const whole = tempDir();
    const all = await convertExports([SAMPLE], { out: whole, importedAt: FIXED_TIME, workers: 0 });
    const total = all.written.created;
    expect(total).toBeGreaterThan(2);

    const out = tempDir();
    const controller = new AbortController();
    await expect(
      convertExports([SAMPLE], {
        out,
        importedAt: FIXED_TIME,
        workers: 0,
        signal: controller.signal,
        onProgress: (p) => {
          if (p.phase === 'convert' && p.conversations === 2) controller.abort(new Error('enough'));
        },
      }),
    ).rejects.toThrow('enough');
    const files = readdirSync(join(out, 'conversations')).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThanOrEqual(2);
    expect(files.length).toBeLessThan(total);
    // Each file written is whole: it parses, and equals the same conversation of a full run.
    const full = new Map(readBundleFiles(whole).conversations.map((c) => [c.id, c]));
    for (const file of files) {
      const c = JSON.parse(readFileSync(join(out, 'conversations', file), 'utf8')) as {
        id: string;
      };
      expect(c).toEqual(full.get(c.id));
    }
  });
});
