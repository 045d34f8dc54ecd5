import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  bin: { chatgraph: string };
};
// The file users run, as `npm install -g` links it: a bundle (scripts/bundle.mjs).
const CLI = join(ROOT, pkg.bin.chatgraph);

describe('the shipped CLI’s stack traces (issue 46)', () => {
  it('name our src/…ts files and lines, not the bundle’s chunks', async () => {
    const dir = tempDir();
    const export_ = join(dir, 'export.txt');
    writeFileSync(export_, 'not an export\n');
    // A data folder under a regular file: mkdir fails (ENOTDIR), an error no one words for the
    // user, so CHATGRAPH_DEBUG prints its stack.
    const notAFolder = join(dir, 'file');
    writeFileSync(notAFolder, '');
    const failed = await run(
      process.execPath,
      [CLI, 'import', export_, '--data-dir', join(notAFolder, 'data')],
      { env: { ...process.env, CHATGRAPH_DEBUG: '1' } },
    ).catch((error: unknown) => error as { code: number; stderr: string });
    expect('code' in failed && failed.code).toBe(1);
    const stderr = 'stderr' in failed ? failed.stderr : '';
    expect(stderr).toMatch(/ENOTDIR/);
    const frames = stderr.split('\n').filter((line) => /^\s+at /.test(line));
    expect(frames.some((line) => /[/\\]src[/\\][\w/\\-]+\.ts:\d+:\d+/.test(line))).toBe(true);
    expect(frames.filter((line) => /dist[/\\]cli[/\\]/.test(line))).toEqual([]);
  });
});
